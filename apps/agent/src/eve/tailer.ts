// Follows Suricata's eve.json (one JSON event per line) and hands on its alert events, each with
// the file position just after it, so the caller can persist exactly how far it has shipped, and
// its stats events (sensor health, not shipped).
//
// Rotation by rename (logrotate's default: eve.json → eve.json.1, Suricata reopens on HUP) is
// seen as a new inode at the path: the old file is read to its end first. Truncation in place
// (copytruncate) is seen as a size below the position: reading restarts at 0. After a restart
// the saved position names an inode; if the path now holds another file, the rotated one is
// looked up by inode in the same folder and finished before the new one is read.

import { open, readdir, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { isErrno } from '../fs/atomic.js';

export const TailPosition = z.object({ ino: z.number(), offset: z.number().int().min(0) });
export type TailPosition = z.infer<typeof TailPosition>;

export type EveEvent = Record<string, unknown>;

export interface TailSink {
  /** `size`: the line's length in bytes. */
  alert(event: EveEvent, position: TailPosition, size: number): Promise<void>;
  /** Read on to `position` (lines without alerts, or the start of a new file). */
  advance(position: TailPosition): void;
  /** The file is about to change (rotation or truncation): settle what came from the old one. */
  switching(): Promise<void>;
  malformed?(position: TailPosition, reason: string): void;
  /** A `stats` event: Suricata's counters, written every stats interval. */
  stats?(event: EveEvent): void;
}

export interface TailerOptions {
  file: string;
  /** Saved position; `null` on the first run. */
  start: TailPosition | null;
  /** First run only: skip what the file already holds (default: read it all). */
  startAtEnd?: boolean;
  /** Longer lines are skipped (default 16 MiB). */
  maxLineBytes?: number;
}

const NEWLINE = 10;
const ALERT_MARK = '"alert"';
const STATS_MARK = '"stats"';

async function statOrNull(file: string) {
  try {
    return await stat(file);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return null;
    throw error;
  }
}

/** A file in `dir` with inode `ino` (a rotated eve.json), if any. */
async function findByInode(dir: string, ino: number): Promise<string | undefined> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return undefined;
  }
  for (const name of names) {
    const candidate = path.join(dir, name);
    const info = await statOrNull(candidate);
    if (info?.isFile() && info.ino === ino) return candidate;
  }
  return undefined;
}

/** The alert or stats event a line holds, `null` for any other event, or an error text. */
export function parseEveLine(line: string): EveEvent | null | string {
  if (!line.includes(ALERT_MARK) && !line.includes(STATS_MARK)) return null;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return error instanceof Error ? error.message : 'invalid JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object';
  const event = value as EveEvent;
  return event.event_type === 'alert' || event.event_type === 'stats' ? event : null;
}

export class EveTailer {
  private handle: FileHandle | undefined;
  private ino = 0;
  private offset = 0;
  private started = false;
  private skipping = false;
  private buffer = Buffer.alloc(256 * 1024);
  private readonly maxLineBytes: number;

  constructor(private readonly options: TailerOptions) {
    this.maxLineBytes = options.maxLineBytes ?? 16 * 1024 * 1024;
  }

  get position(): TailPosition {
    return { ino: this.ino, offset: this.offset };
  }

  /** Reads everything available now. */
  async poll(sink: TailSink): Promise<void> {
    if (!this.started) {
      this.started = true;
      await this.resume(sink);
    }
    if (!this.handle && !(await this.openPath(sink, 0))) return;
    await this.drain(sink, false);
    const current = await statOrNull(this.options.file);
    if (!current) return; // renamed away and not yet recreated: the writer may still append
    if (current.ino !== this.ino) {
      await this.drain(sink, true);
      await this.close();
      await sink.switching();
      if (await this.openPath(sink, 0)) await this.drain(sink, false);
      return;
    }
    const size = (await this.handle?.stat())?.size ?? 0;
    if (size < this.offset) {
      await sink.switching();
      this.offset = 0;
      this.skipping = false;
      sink.advance(this.position);
      await this.drain(sink, false);
    }
  }

  async close(): Promise<void> {
    await this.handle?.close();
    this.handle = undefined;
  }

  private async openPath(sink: TailSink, offset: number): Promise<boolean> {
    let handle: FileHandle;
    try {
      handle = await open(this.options.file, 'r');
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return false;
      throw error;
    }
    const info = await handle.stat();
    this.handle = handle;
    this.ino = info.ino;
    this.offset = Math.min(offset, info.size);
    this.skipping = false;
    sink.advance(this.position);
    return true;
  }

  /** Picks up where the saved position says, finishing a file rotated while we were away. */
  private async resume(sink: TailSink): Promise<void> {
    const { start, file } = this.options;
    const current = await statOrNull(file);
    if (!start) {
      if (current && this.options.startAtEnd) await this.openPath(sink, current.size);
      return;
    }
    if (current?.ino === start.ino) {
      await this.openPath(sink, current.size < start.offset ? 0 : start.offset);
      return;
    }
    const rotated = await findByInode(path.dirname(file), start.ino);
    if (rotated) {
      this.handle = await open(rotated, 'r');
      this.ino = start.ino;
      this.offset = start.offset;
      await this.drain(sink, true);
      await this.close();
    }
    await sink.switching();
    await this.openPath(sink, 0);
  }

  /** Reads from the position to the end of the open file. `final`: a last line may lack \n. */
  private async drain(sink: TailSink, final: boolean): Promise<void> {
    const handle = this.handle;
    if (!handle) return;
    for (;;) {
      const { bytesRead } = await handle.read(this.buffer, 0, this.buffer.length, this.offset);
      if (bytesRead === 0) return;
      const consumed = await this.consume(sink, bytesRead, final);
      if (consumed === 0) {
        if (bytesRead < this.buffer.length) return; // a line still being written
        if (this.buffer.length * 2 <= this.maxLineBytes) {
          this.buffer = Buffer.alloc(this.buffer.length * 2);
        } else {
          sink.malformed?.(this.position, `line longer than ${this.maxLineBytes} bytes skipped`);
          this.skipping = true;
          this.offset += bytesRead;
        }
        continue;
      }
      this.offset += consumed;
      sink.advance(this.position);
    }
  }

  /** Handles the complete lines in the buffer; returns the bytes they span. */
  private async consume(sink: TailSink, length: number, final: boolean): Promise<number> {
    const buffer = this.buffer;
    let start = 0;
    for (;;) {
      let end = buffer.indexOf(NEWLINE, start);
      if (end < 0 || end >= length) {
        if (!final || start >= length || length === buffer.length) return start;
        end = length; // the unterminated end of a file that will not grow any more
      }
      const next = Math.min(end + 1, length);
      if (this.skipping) {
        this.skipping = false;
      } else {
        const line = buffer.toString('utf8', start, end).trim();
        if (line !== '') {
          const position = { ino: this.ino, offset: this.offset + next };
          const parsed = parseEveLine(line);
          if (typeof parsed === 'string') sink.malformed?.(position, parsed);
          else if (parsed?.event_type === 'stats') sink.stats?.(parsed);
          else if (parsed) await sink.alert(parsed, position, end - start);
        }
      }
      start = next;
      if (start >= length) return start;
    }
  }
}
