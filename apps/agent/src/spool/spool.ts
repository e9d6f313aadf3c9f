// On-disk spool of numbered batches (alerts or log lines) waiting for the server's ack.
//
// Layout in the state folder: `<name>/<seq>.json` per batch and `<name>.state.json` with the
// next number and the source cursor (where the tailer stands). A batch is written and flushed
// before its state, so after a crash between the two the newest batch file is the truth: its
// number and cursor are taken back at open. Numbers are never reused. Batches leave the spool
// only when the server acknowledges a number at or above theirs.
//
// A simulated device of a fleet keeps its spool in memory instead (`Spool.inMemory`): the same
// numbering and acknowledgements, no files (5,000 devices' files were a fleet's main I/O).

import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { readJsonIfExists, writeFileAtomic, writeJsonAtomic } from '../fs/atomic.js';

export interface SpoolBatch<T> {
  seq: number;
  items: T[];
  /** Where the source stood after the batch's last item (null: no source position). */
  cursor: unknown;
}

const SpoolState = z.object({ next_seq: z.number().int().positive(), cursor: z.unknown() });
const StoredBatch = z.object({
  seq: z.number().int().positive(),
  items: z.array(z.unknown()),
  cursor: z.unknown(),
});

const BATCH_FILE = /^(\d{1,15})\.json$/;

function batchName(seq: number): string {
  return `${String(seq).padStart(12, '0')}.json`;
}

export interface SpoolOptions {
  /** Oldest batches are dropped past this many bytes (a sensor must not fill its disk). */
  maxBytes?: number;
  onDrop?: (seq: number, items: number) => void;
}

export class Spool<T> {
  private nextSeq: number;
  private cursorValue: unknown;
  /** seq → size in bytes, ascending by seq. */
  private readonly batches = new Map<number, number>();
  private bytes = 0;
  /** Changes run one at a time (a batcher appends while the sender acknowledges). */
  private queue: Promise<unknown> = Promise.resolve();
  /** The batches by seq when the spool is kept in memory (null: on disk). */
  private readonly memory: Map<number, SpoolBatch<T>> | null;

  private constructor(
    private readonly dir: string,
    private readonly stateFile: string,
    private readonly options: SpoolOptions,
    state: z.infer<typeof SpoolState>,
    inMemory = false,
  ) {
    this.nextSeq = state.next_seq;
    this.cursorValue = state.cursor;
    this.memory = inMemory ? new Map() : null;
  }

  /** A spool that lives and dies with the process (a simulated device's). */
  static inMemory<T>(options: SpoolOptions = {}): Spool<T> {
    return new Spool<T>('', '', options, { next_seq: 1, cursor: null }, true);
  }

  static async open<T>(stateDir: string, name: string, options: SpoolOptions = {}) {
    const dir = path.join(stateDir, name);
    const stateFile = path.join(stateDir, `${name}.state.json`);
    await mkdir(dir, { recursive: true });
    const saved = SpoolState.safeParse(await readJsonIfExists(stateFile));
    const spool = new Spool<T>(
      dir,
      stateFile,
      options,
      saved.success ? saved.data : { next_seq: 1, cursor: null },
    );
    await spool.load();
    return spool;
  }

  private async load(): Promise<void> {
    const found: { seq: number; size: number }[] = [];
    for (const name of await readdir(this.dir)) {
      const match = BATCH_FILE.exec(name);
      if (!match?.[1]) {
        if (name.endsWith('.tmp')) await rm(path.join(this.dir, name), { force: true });
        continue;
      }
      found.push({ seq: Number(match[1]), size: (await stat(path.join(this.dir, name))).size });
    }
    found.sort((a, b) => a.seq - b.seq);
    for (const { seq, size } of found) {
      this.batches.set(seq, size);
      this.bytes += size;
    }
    const newest = found.at(-1);
    if (newest && newest.seq >= this.nextSeq) {
      // Crashed after writing a batch and before recording it: the batch is the truth.
      const batch = await this.read(newest.seq);
      this.nextSeq = newest.seq + 1;
      this.cursorValue = batch.cursor;
      await this.saveState();
    }
  }

  /** The source cursor stored with the newest batch (or by `saveCursor`). */
  get cursor(): unknown {
    return this.cursorValue;
  }

  /** Number of batches waiting for an ack. */
  get size(): number {
    return this.batches.size;
  }

  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  pendingSeqs(): number[] {
    return [...this.batches.keys()];
  }

  private async writeBatch(batch: SpoolBatch<T>, text: string): Promise<void> {
    if (this.memory) this.memory.set(batch.seq, batch);
    else await writeFileAtomic(path.join(this.dir, batchName(batch.seq)), text);
  }

  private async removeBatch(seq: number): Promise<void> {
    if (this.memory) this.memory.delete(seq);
    else await rm(path.join(this.dir, batchName(seq)), { force: true });
  }

  private async saveState(): Promise<void> {
    if (this.memory) return;
    await writeJsonAtomic(this.stateFile, { next_seq: this.nextSeq, cursor: this.cursorValue });
  }

  private exclusive<R>(change: () => Promise<R>): Promise<R> {
    const result = this.queue.then(change);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Stores a batch durably and gives its number; `cursor` undefined keeps the stored one. */
  append(items: T[], cursor?: unknown): Promise<number> {
    return this.exclusive(() =>
      this.appendNow(items, cursor === undefined ? this.cursorValue : cursor),
    );
  }

  private async appendNow(items: T[], cursor: unknown): Promise<number> {
    const seq = this.nextSeq;
    const text = `${JSON.stringify({ seq, items, cursor })}\n`;
    await this.writeBatch({ seq, items, cursor }, text);
    this.nextSeq = seq + 1;
    this.cursorValue = cursor;
    this.batches.set(seq, Buffer.byteLength(text));
    this.bytes += Buffer.byteLength(text);
    await this.saveState();
    await this.enforceLimit();
    return seq;
  }

  /** Records how far the source has been read when that adds no item. */
  saveCursor(cursor: unknown): Promise<void> {
    return this.exclusive(async () => {
      this.cursorValue = cursor;
      await this.saveState();
    });
  }

  async read(seq: number): Promise<SpoolBatch<T>> {
    if (this.memory) {
      const kept = this.memory.get(seq);
      if (!kept) throw new Error(`spool batch ${seq} is not held`);
      return kept;
    }
    const text = await readFile(path.join(this.dir, batchName(seq)), 'utf8');
    const batch = StoredBatch.parse(JSON.parse(text));
    return { seq: batch.seq, items: batch.items as T[], cursor: batch.cursor };
  }

  /** The oldest batch not yet acknowledged. */
  async oldest(): Promise<SpoolBatch<T> | undefined> {
    const first = this.batches.keys().next();
    return first.done ? undefined : this.read(first.value);
  }

  /**
   * The server has stored everything up to `ack`. Batches at or below leave the spool. An ack
   * above every number this spool ever gave means the server knew this device under an older
   * numbering (the state folder was wiped): the waiting batches were not stored, so they are
   * renumbered after the ack and sent again.
   */
  acknowledge(ack: number): Promise<void> {
    return this.exclusive(async () => {
      if (ack > this.lastSeq) {
        await this.renumberAfter(ack);
        return;
      }
      for (const [seq, size] of [...this.batches]) {
        if (seq > ack) break;
        await this.removeBatch(seq);
        this.batches.delete(seq);
        this.bytes -= size;
      }
    });
  }

  /**
   * The server refused a batch as too large: its items go back in as two new batches at the
   * end (new numbers; the server stores gaps), or, for a single item, the batch is dropped.
   * Resolves with the new numbers (empty when dropped).
   */
  split(seq: number): Promise<number[]> {
    return this.exclusive(async () => {
      const batch = await this.read(seq);
      const half = Math.ceil(batch.items.length / 2);
      const parts =
        batch.items.length > 1 ? [batch.items.slice(0, half), batch.items.slice(half)] : [];
      const seqs: number[] = [];
      for (const part of parts) seqs.push(await this.appendNow(part, this.cursorValue));
      await this.removeNow(seq);
      return seqs;
    });
  }

  /** The server refused a batch for good (it is invalid): it leaves the spool unacknowledged. */
  discard(seq: number): Promise<void> {
    return this.exclusive(() => this.removeNow(seq));
  }

  private async removeNow(seq: number): Promise<void> {
    await this.removeBatch(seq);
    this.bytes -= this.batches.get(seq) ?? 0;
    this.batches.delete(seq);
  }

  private async renumberAfter(ack: number): Promise<void> {
    const waiting = [...this.batches.keys()];
    const target = ack + 1;
    // Highest first so that no new name collides with a batch not yet moved.
    for (let i = waiting.length - 1; i >= 0; i--) {
      const seq = waiting[i] as number;
      const batch = await this.read(seq);
      const renumbered = target + i;
      const moved = { ...batch, seq: renumbered };
      await this.writeBatch(moved, `${JSON.stringify(moved)}\n`);
      await this.removeBatch(seq);
    }
    const sizes = waiting.map((seq) => this.batches.get(seq) ?? 0);
    this.batches.clear();
    sizes.forEach((size, i) => this.batches.set(target + i, size));
    this.nextSeq = target + waiting.length;
    await this.saveState();
  }

  private async enforceLimit(): Promise<void> {
    const max = this.options.maxBytes;
    if (max === undefined) return;
    while (this.bytes > max && this.batches.size > 1) {
      const first = this.batches.entries().next();
      if (first.done) return;
      const [seq, size] = first.value;
      const dropped = await this.read(seq).catch(() => undefined);
      await this.removeBatch(seq);
      this.batches.delete(seq);
      this.bytes -= size;
      this.options.onDrop?.(seq, dropped?.items.length ?? 0);
    }
  }
}
