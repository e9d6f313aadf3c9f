// Gathers items into batches by size and age and writes each batch to the spool. Every item may
// carry the source cursor just after it; a batch records the cursor of its last item, or the
// newest cursor seen when the batch takes every buffered item (lines read past the last alert
// are then not read again after a restart).

import type { Spool } from './spool.js';

export interface BatcherOptions {
  maxItems: number;
  /** Serialized size a batch stays under (the server takes bodies up to 8 MiB; default 4 MiB). */
  maxBytes?: number;
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
  size: number;
}

const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

export class Batcher<T> {
  private buffer: Entry<T>[] = [];
  private bufferedBytes = 0;
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
  add(item: T, cursor: unknown = this.latestCursor, size?: number): Promise<void> {
    const bytes = size ?? JSON.stringify(item).length;
    this.buffer.push({ item, cursor, size: bytes });
    this.bufferedBytes += bytes;
    this.latestCursor = cursor;
    if (
      this.buffer.length >= this.options.maxItems ||
      this.bufferedBytes >= (this.options.maxBytes ?? DEFAULT_MAX_BYTES)
    ) {
      return this.flush();
    }
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
    this.bufferedBytes = 0;
    this.cursorDirty = false;
  }

  /** Writes everything buffered to the spool, in batches within `maxItems` and `maxBytes`. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.chain = this.chain.then(() => this.drain());
    return this.chain;
  }

  /** The oldest entries within both limits (at least one). */
  private nextBatch(): Entry<T>[] {
    const maxBytes = this.options.maxBytes ?? DEFAULT_MAX_BYTES;
    let bytes = 0;
    let count = 0;
    for (const entry of this.buffer) {
      if (count >= this.options.maxItems || (count > 0 && bytes + entry.size > maxBytes)) break;
      bytes += entry.size;
      count += 1;
    }
    return this.buffer.slice(0, count);
  }

  private async drain(): Promise<void> {
    while (this.buffer.length > 0) {
      const take = this.nextBatch();
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
      this.bufferedBytes -= take.reduce((sum, e) => sum + e.size, 0);
      this.options.onBatch?.(seq);
    }
    if (this.cursorDirty && this.options.cursor !== false) {
      this.cursorDirty = false;
      await this.spool.saveCursor(this.latestCursor);
    }
  }
}
