/**
 * Group commit: writes of many requests in one statement. An item that arrives while no write
 * runs is written `gatherMs` later (0: on the next turn of the event loop), with whatever else
 * was read by then; items that arrive during a write go into the next one. A fleet's reports
 * after a change arrive over a second or two, a few each millisecond: written as they come, each
 * would be a statement of its own (on a loaded server a statement's send alone costs more than
 * the wait), gathered for a few milliseconds they are a few statements in all. Each caller's promise settles when the
 * write holding its item has committed, with that item's result (or failed: then every caller of
 * that write hears the error, and nothing of it was written, the write being one statement or
 * one transaction).
 */
export class GroupWrite<T, R = void> {
  private waiting: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] =
    [];
  private draining: Promise<void> | null = null;
  /** Writes done (each one statement or transaction): the tests count them. */
  writes = 0;

  constructor(
    /** Writes the items; answers one result per item, in their order. */
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly options: { maxItems?: number; gatherMs?: number } = {},
  ) {}

  /** Resolves once `item` is written, with its result. */
  add(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.draining ??= this.drain().finally(() => {
        this.draining = null;
      });
    });
  }

  /** Resolves once every item added so far has been written (or failed). */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      // Let the requests that arrive meanwhile be read first: they join this write.
      const gatherMs = this.options.gatherMs ?? 0;
      await new Promise((resolve) =>
        gatherMs > 0 ? setTimeout(resolve, gatherMs) : setImmediate(resolve),
      );
      const batch = this.waiting.splice(0, this.options.maxItems ?? 5000);
      try {
        this.writes += 1;
        const results = await this.write(batch.map((w) => w.item));
        batch.forEach((w, i) => w.resolve(results[i] as R));
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
  }
}
