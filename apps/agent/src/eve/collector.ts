// Ships eve.json alerts into the spool: the tailer reads, the batcher groups alerts by size and
// age, and each batch is stored with the file position after it. That position is where reading
// resumes after a restart, so an alert is spooled once and only once. Stats events feed the
// sensor health the heartbeat reports.

import { z } from 'zod';
import { sleep } from '../client/backoff.js';
import { Batcher, type BatcherOptions } from '../spool/batcher.js';
import type { Spool } from '../spool/spool.js';
import { SensorHealthTracker } from './health.js';
import { EveTailer, TailPosition, type EveEvent, type TailSink } from './tailer.js';

const EveCursor = z.object({ file: z.string(), position: TailPosition });

export interface CollectorOptions {
  file: string;
  spool: Spool<EveEvent>;
  batch: Omit<BatcherOptions, 'onError'>;
  pollMs?: number;
  startAtEnd?: boolean;
  onError?: (error: unknown) => void;
  onMalformed?: (position: TailPosition, reason: string) => void;
}

export class EveCollector {
  private readonly tailer: EveTailer;
  private readonly batcher: Batcher<EveEvent>;
  private readonly stopper = new AbortController();
  private loop: Promise<void> | undefined;
  /** Suricata's latest stats, for the heartbeat. */
  readonly health = new SensorHealthTracker();

  constructor(private readonly options: CollectorOptions) {
    const saved = EveCursor.safeParse(options.spool.cursor);
    const start = saved.success && saved.data.file === options.file ? saved.data.position : null;
    this.tailer = new EveTailer({
      file: options.file,
      start,
      startAtEnd: options.startAtEnd ?? false,
    });
    this.batcher = new Batcher(options.spool, { ...options.batch, onError: options.onError });
  }

  private cursor(position: TailPosition): z.infer<typeof EveCursor> {
    return { file: this.options.file, position };
  }

  private readonly sink: TailSink = {
    alert: (event, position, size) => this.batcher.add(event, this.cursor(position), size),
    advance: (position) => this.batcher.advance(this.cursor(position)),
    switching: () => this.batcher.flush(),
    malformed: (position, reason) => this.options.onMalformed?.(position, reason),
    stats: (event) => this.health.observe(event),
  };

  /** Reads what is available now (tests and the loop use it). */
  poll(): Promise<void> {
    return this.tailer.poll(this.sink);
  }

  start(): void {
    this.loop ??= this.run();
  }

  private async run(): Promise<void> {
    const signal = this.stopper.signal;
    while (!signal.aborted) {
      try {
        await this.poll();
      } catch (error) {
        this.options.onError?.(error);
      }
      await sleep(this.options.pollMs ?? 250, signal);
    }
  }

  /** Stops reading and writes what is buffered to the spool (`flush: false`: as a crash would). */
  async stop({ flush = true }: { flush?: boolean } = {}): Promise<void> {
    this.stopper.abort();
    await this.loop;
    if (flush) await this.batcher.flush();
    else this.batcher.discard();
    await this.tailer.close();
  }
}
