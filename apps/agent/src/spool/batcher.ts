// Gathers items into batches by size and age and writes each batch to the spool. Every item may
// carry the source cursor just after it; a batch records the cursor of its last item, or the
// newest cursor seen when the batch takes every buffered item (lines read past the last alert
// are then not read again after a restart).

import type { Spool } from './spool.js';

export interface BatcherOptions {
  maxItems: number;
  maxDelayMs: number;
  /** Called after each batch reaches the spool. */
  onBatch?: (seq: number) => void;
  onError?: (error: unknown) => void;
  /** False for a source without positions (the simulation): the spool's cursor is left alone. */
  cursor?: boolean;
}

interface Entry<T> {
  item: T;
  cursor: unknown;
}

export class Batcher<T> {
  private buffer: Entry<T>[] = [];
  private latestCursor: unknown;
  private cursorDirty = false;
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly spool: Spool<T>,
    private readonly options: BatcherOptions,
  ) {
    this.latestCursor = spool.cursor;
  }

  get buffered(): number {
    return this.buffer.length;
  }

  /** Buffers an item; resolves once any batch it completed is in the spool. */
  add(item: T, cursor: unknown = this.latestCursor): Promise<void> {
    this.buffer.push({ item, cursor });
    this.latestCursor = cursor;
    if (this.buffer.length >= this.options.maxItems) return this.flush();
    this.arm();
    return Promise.resolve();
  }

  /** The source moved on without producing an item (saved with the next batch or flush). */
  advance(cursor: unknown): void {
    this.latestCursor = cursor;
    this.cursorDirty = true;
    this.arm();
  }

  private arm(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch((error: unknown) => this.options.onError?.(error));
    }, this.options.maxDelayMs);
    this.timer.unref();
  }

  /** Forgets what is buffered (it is read again from the source after a restart). */
  discard(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.buffer = [];
    this.cursorDirty = false;
  }

  /** Writes everything buffered to the spool, in batches of at most `maxItems`. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.chain = this.chain.then(() => this.drain());
    return this.chain;
  }

  private async drain(): Promise<void> {
    while (this.buffer.length > 0) {
      const take = this.buffer.slice(0, this.options.maxItems);
      const all = take.length === this.buffer.length;
      const last = take.at(-1) as Entry<T>;
      const cursor =
        this.options.cursor === false ? undefined : all ? this.latestCursor : last.cursor;
      if (all) this.cursorDirty = false;
      const seq = await this.spool.append(
        take.map((e) => e.item),
        cursor,
      );
      this.buffer = this.buffer.slice(take.length);
      this.options.onBatch?.(seq);
    }
    if (this.cursorDirty && this.options.cursor !== false) {
      this.cursorDirty = false;
      await this.spool.saveCursor(this.latestCursor);
    }
  }
}
