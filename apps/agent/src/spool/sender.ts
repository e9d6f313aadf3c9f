// Sends the spool's batches to the server oldest first, one at a time, and drops them when the
// server's ack covers them. Failures are retried with back-off; nothing leaves the spool
// without an ack, so a server restart or a network cut delays batches but never loses them.
// The exception is a batch the server refuses as invalid (a 4xx that asking again cannot
// change): sending it again would block every later batch forever, so it is dropped.

import type { AgentRejectedEvent } from '@palisade/contract';
import { ApiError } from '../client/api.js';
import { backoffDelay, DEFAULT_BACKOFF, sleep, type BackoffOptions } from '../client/backoff.js';
import type { Spool, SpoolBatch } from './spool.js';

/** The server's answer to a batch. */
export interface SendAnswer {
  ack: number;
  /** Items of the batch the server did not store (it stored the others). */
  rejected?: readonly AgentRejectedEvent[];
}

export interface SenderOptions<T> {
  spool: Spool<T>;
  /** Posts a batch; resolves with the server's answer. */
  send: (batch: SpoolBatch<T>, signal: AbortSignal) => Promise<SendAnswer>;
  backoff?: BackoffOptions;
  onError?: (error: unknown, attempt: number) => void;
  onAck?: (ack: number) => void;
  /** A single item the server refused as too large, dropped. */
  onDrop?: (batch: SpoolBatch<T>) => void;
  /** A batch the server refused as invalid, dropped (it is not sent again). */
  onRefused?: (batch: SpoolBatch<T>, error: ApiError) => void;
  /** A stored batch some of whose items the server rejected. */
  onRejected?: (batch: SpoolBatch<T>, rejected: readonly AgentRejectedEvent[]) => void;
}

/** Client errors that may pass: the token (401), a timeout (408), too many requests (429). */
const RETRIED_4XX = new Set([401, 408, 429]);

/** The server judged the batch itself invalid: the same request will always get this answer. */
export function isRefusal(error: unknown): error is ApiError {
  return (
    error instanceof ApiError &&
    error.status >= 400 &&
    error.status < 500 &&
    !RETRIED_4XX.has(error.status)
  );
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
        const { ack, rejected } = await this.options.send(batch, signal);
        if (ack < batch.seq) throw new Error(`batch ${batch.seq} answered with ack ${ack}`);
        await spool.acknowledge(ack);
        if (rejected && rejected.length > 0) this.options.onRejected?.(batch, rejected);
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
        if (isRefusal(error)) {
          await spool.discard(batch.seq);
          this.options.onRefused?.(batch, error);
          attempt = 0;
          continue;
        }
        attempt += 1;
        this.options.onError?.(error, attempt);
        await sleep(backoffDelay(attempt, this.options.backoff ?? DEFAULT_BACKOFF), signal);
      }
    }
  }
}
