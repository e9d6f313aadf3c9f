/** Spec §4/§9 notification constants. */
export const MIN_PROGRESS_MS = 500;
export const GAP_MS = 500;
export const SNACKBAR_TIMEOUT_MS = 5000;

export type NoticeColor = 'info' | 'success' | 'warning' | 'error';

export interface NoticeInput {
  /** A translation key, or (with `raw`) a server text shown as is. */
  content: string;
  params?: Record<string, string | number>;
  raw?: boolean;
  color?: NoticeColor;
  /** A progress notice shows a small spinner and stays until removed. */
  showProgress?: boolean;
  timeout?: number;
}

export interface Notice extends Required<Pick<NoticeInput, 'content' | 'color'>> {
  id: number;
  params: Record<string, string | number> | undefined;
  raw: boolean;
  showProgress: boolean;
  timeout: number;
}

export interface QueueSnapshot {
  current: Notice | null;
  open: boolean;
}

export interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface QueueOptions {
  /**
   * The notice's time (its timeout, a progress notice's minimum) starts when the view reports
   * it on screen through `displayed(id)`, not when the queue hands it out: the snackbar code
   * loads with the first notice and would otherwise eat into it.
   */
  awaitDisplay?: boolean;
}

/**
 * One notice at a time from a FIFO queue. A notice leaves by its close button or its
 * timeout; progress notices have no timeout and are held at least MIN_PROGRESS_MS.
 * On close the current one hides first and the next shows GAP_MS later.
 */
export class NotificationQueue {
  private queue: Notice[] = [];
  private snapshot: QueueSnapshot = { current: null, open: false };
  /** When the current notice came on screen; null until it has. */
  private shownAt: number | null = null;
  private timer: unknown = null;
  private nextId = 1;
  private readonly listeners = new Set<() => void>();
  private pendingRemoval = new Set<number>();
  private gapRunning = false;
  private readonly awaitDisplay: boolean;

  constructor(
    private readonly clock: Clock = realClock,
    options: QueueOptions = {},
  ) {
    this.awaitDisplay = options.awaitDisplay ?? false;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): QueueSnapshot => this.snapshot;

  /** Queued notices not yet shown (for tests and diagnostics). */
  pending(): readonly Notice[] {
    return this.queue;
  }

  push(input: NoticeInput): number {
    const showProgress = input.showProgress ?? false;
    const notice: Notice = {
      id: this.nextId++,
      content: input.content,
      params: input.params,
      raw: input.raw ?? false,
      color: input.color ?? 'info',
      showProgress,
      timeout: showProgress ? 0 : (input.timeout ?? SNACKBAR_TIMEOUT_MS),
    };
    this.queue.push(notice);
    this.pump();
    return notice.id;
  }

  /**
   * Removes a notice wherever it is; a progress notice on screen stays its minimum time first,
   * counted from when it was displayed.
   */
  remove(id: number): void {
    const { current, open } = this.snapshot;
    if (current?.id === id && open) {
      const minimum = current.showProgress ? MIN_PROGRESS_MS : 0;
      const held = this.shownAt === null ? null : this.clock.now() - this.shownAt;
      if (minimum === 0 || (held !== null && held >= minimum)) {
        this.close();
      } else if (!this.pendingRemoval.has(id)) {
        this.pendingRemoval.add(id);
        // Not on screen yet: `displayed` schedules the removal when it is.
        if (held !== null) this.scheduleRemoval(id, minimum - held);
      }
      return;
    }
    this.queue = this.queue.filter((notice) => notice.id !== id);
  }

  /** The view reports the current notice on screen: its time starts now (see QueueOptions). */
  displayed(id: number): void {
    const { current, open } = this.snapshot;
    if (current?.id !== id || !open || this.shownAt !== null) return;
    this.start(current);
  }

  /** The close button, or the timeout: hide now, show the next after the gap. */
  close(): void {
    if (!this.snapshot.open) return;
    this.clearTimer();
    this.set({ current: this.snapshot.current, open: false });
    this.gapRunning = true;
    this.clock.setTimeout(() => {
      this.gapRunning = false;
      this.set({ current: null, open: false });
      this.pump();
    }, GAP_MS);
  }

  private pump(): void {
    if (this.snapshot.open || this.gapRunning) return;
    const next = this.queue.shift();
    if (next === undefined) return;
    this.shownAt = null;
    this.set({ current: next, open: true });
    if (!this.awaitDisplay) this.start(next);
  }

  /** The notice is on screen: hold it from now, and time it out. */
  private start(notice: Notice): void {
    this.shownAt = this.clock.now();
    if (this.pendingRemoval.has(notice.id)) {
      this.scheduleRemoval(notice.id, notice.showProgress ? MIN_PROGRESS_MS : 0);
    }
    if (notice.timeout > 0) {
      this.timer = this.clock.setTimeout(() => {
        this.timer = null;
        if (this.snapshot.current?.id === notice.id) this.close();
      }, notice.timeout);
    }
  }

  private scheduleRemoval(id: number, ms: number): void {
    this.clock.setTimeout(() => {
      this.pendingRemoval.delete(id);
      if (this.snapshot.current?.id === id && this.snapshot.open) this.close();
    }, ms);
  }

  private clearTimer(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private set(snapshot: QueueSnapshot): void {
    this.snapshot = snapshot;
    for (const listener of this.listeners) listener();
  }
}

export const notifications = new NotificationQueue(realClock, { awaitDisplay: true });

/**
 * Wraps a save or delete: a progress notice (held at least 500 ms), then a success notice.
 * On failure the progress notice is removed and the error goes to the caller's handler.
 */
export async function withProgress<T>(
  labels: { progress: string; success: string },
  run: () => Promise<T>,
  queue: NotificationQueue = notifications,
): Promise<T> {
  const id = queue.push({ content: labels.progress, showProgress: true });
  try {
    const result = await run();
    queue.remove(id);
    queue.push({ content: labels.success, color: 'success' });
    return result;
  } catch (error) {
    queue.remove(id);
    throw error;
  }
}
