// Sends the spool's batches to the server oldest first, one at a time, and drops them when the
// server's ack covers them. Failures are retried with back-off; nothing leaves the spool
// without an ack, so a server restart or a network cut delays batches but never loses them.

import { ApiError } from '../client/api.js';
import { backoffDelay, DEFAULT_BACKOFF, sleep, type BackoffOptions } from '../client/backoff.js';
import type { Spool, SpoolBatch } from './spool.js';

export interface SenderOptions<T> {
  spool: Spool<T>;
  /** Posts a batch; resolves with the server's ack. */
  send: (batch: SpoolBatch<T>, signal: AbortSignal) => Promise<number>;
  backoff?: BackoffOptions;
  onError?: (error: unknown, attempt: number) => void;
  onAck?: (ack: number) => void;
  /** A single item the server refused as too large, dropped. */
  onDrop?: (batch: SpoolBatch<T>) => void;
}

export class SpoolSender<T> {
  private readonly stopper = new AbortController();
  private wake: (() => void) | undefined;
  private signalled = false;
  private loop: Promise<void> | undefined;

  constructor(private readonly options: SenderOptions<T>) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** New batches are in the spool. */
  notify(): void {
    this.signalled = true;
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.stopper.abort();
    this.wake?.();
    await this.loop;
  }

  private waitForWork(): Promise<void> {
    if (this.signalled || this.stopper.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      this.wake = () => {
        this.wake = undefined;
        resolve();
      };
    });
  }

  private async run(): Promise<void> {
    const { spool } = this.options;
    const signal = this.stopper.signal;
    let attempt = 0;
    while (!signal.aborted) {
      this.signalled = false;
      const batch = await spool.oldest();
      if (!batch) {
        await this.waitForWork();
        continue;
      }
      try {
        const ack = await this.options.send(batch, signal);
        if (ack < batch.seq) throw new Error(`batch ${batch.seq} answered with ack ${ack}`);
        await spool.acknowledge(ack);
        this.options.onAck?.(ack);
        attempt = 0;
      } catch (error) {
        if (signal.aborted) break;
        if (error instanceof ApiError && error.status === 413) {
          // Too large for the server: send it in halves (one item alone is dropped).
          const parts = await spool.split(batch.seq);
          this.options.onError?.(error, 0);
          if (parts.length === 0) this.options.onDrop?.(batch);
          continue;
        }
        attempt += 1;
        this.options.onError?.(error, attempt);
        await sleep(backoffDelay(attempt, this.options.backoff ?? DEFAULT_BACKOFF), signal);
      }
    }
  }
}
