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

/**
 * One notice at a time from a FIFO queue. A notice leaves by its close button or its
 * timeout; progress notices have no timeout and are held at least MIN_PROGRESS_MS.
 * On close the current one hides first and the next shows GAP_MS later.
 */
export class NotificationQueue {
  private queue: Notice[] = [];
  private snapshot: QueueSnapshot = { current: null, open: false };
  private shownAt = 0;
  private timer: unknown = null;
  private nextId = 1;
  private readonly listeners = new Set<() => void>();
  private pendingRemoval = new Set<number>();
  private gapRunning = false;

  constructor(private readonly clock: Clock = realClock) {}

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

  /** Removes a notice wherever it is; a shown progress notice stays its minimum time first. */
  remove(id: number): void {
    const { current, open } = this.snapshot;
    if (current?.id === id && open) {
      const held = this.clock.now() - this.shownAt;
      const minimum = current.showProgress ? MIN_PROGRESS_MS : 0;
      if (held >= minimum) {
        this.close();
      } else if (!this.pendingRemoval.has(id)) {
        this.pendingRemoval.add(id);
        this.clock.setTimeout(() => {
          this.pendingRemoval.delete(id);
          if (this.snapshot.current?.id === id && this.snapshot.open) this.close();
        }, minimum - held);
      }
      return;
    }
    this.queue = this.queue.filter((notice) => notice.id !== id);
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
    this.shownAt = this.clock.now();
    this.set({ current: next, open: true });
    if (next.timeout > 0) {
      this.timer = this.clock.setTimeout(() => {
        this.timer = null;
        if (this.snapshot.current?.id === next.id) this.close();
      }, next.timeout);
    }
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

export const notifications = new NotificationQueue();

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
