// The agent's logger: pino, JSON lines on stdout (readable lines on a terminal), and a tap that
// hands each line of a device to that device's log spool so the console can show it
// (POST /agent/logs).

import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogLine } from './client/api.js';
import type { Batcher } from './spool/batcher.js';

type Level = LogLine['level'];

function levelName(level: number): Level {
  if (level >= 50) return 'error';
  if (level >= 40) return 'warn';
  if (level >= 30) return 'info';
  return 'debug';
}

/** Bindings and fields not repeated in the shipped message. */
const OMIT = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'device_id', 'name']);

/** One pino JSON line as a protocol log line (null for lines that are not objects). */
export function toLogLine(json: string): { deviceId: number | null; line: LogLine } | null {
  let record: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed !== 'object' || parsed === null) return null;
    record = parsed as Record<string, unknown>;
  } catch {
    return null;
  }
  const extras: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (OMIT.has(key)) continue;
    if (key === 'err' && typeof value === 'object' && value !== null) {
      const message = (value as { message?: unknown }).message;
      extras.push(`err=${typeof message === 'string' ? message : JSON.stringify(value)}`);
    } else {
      extras.push(`${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
    }
  }
  const msg = [typeof record.msg === 'string' ? record.msg : '', ...extras].join(' ').trim();
  const time = typeof record.time === 'number' ? new Date(record.time) : new Date();
  return {
    deviceId: typeof record.device_id === 'number' ? record.device_id : null,
    line: {
      time: time.toISOString(),
      level: levelName(typeof record.level === 'number' ? record.level : 30),
      msg: msg.slice(0, 8000),
    },
  };
}

/**
 * How long an info or debug line waits for the lines after it before it is shipped. A change
 * that reaches a whole fleet makes every agent log it at once: shipped 2 s later (as they
 * were), those lines reached the server while the fleet's other agents were still pulling and
 * reporting the change, and took about half of the server's and the database's work during it
 * (docs/operations.md, "Fleet-wide changes"). Warnings and errors do not wait.
 */
export const LOG_LINGER_MS = 10_000;

/**
 * Buffers a device's log line for its spool: a warning or an error is written to the spool at
 * once, with the lines that waited before it; others wait up to `LOG_LINGER_MS` (the batcher's
 * delay) or until the batch is full.
 */
export function queueLogLine(batcher: Batcher<LogLine>, line: LogLine): Promise<void> {
  const added = batcher.add(line);
  return line.level === 'warn' || line.level === 'error'
    ? added.then(() => batcher.flush())
    : added;
}

export class LogTap {
  private readonly sinks = new Map<number, (line: LogLine) => void>();

  /** Lines logged with `device_id: id` go to `sink`. */
  attach(id: number, sink: (line: LogLine) => void): () => void {
    this.sinks.set(id, sink);
    return () => this.sinks.delete(id);
  }

  write(chunk: string): void {
    const parsed = toLogLine(chunk);
    if (!parsed || parsed.deviceId === null) return;
    this.sinks.get(parsed.deviceId)?.(parsed.line);
  }
}

export function createLogger(options: { level: string; shipLevel?: string; tap: LogTap }): Logger {
  return pino(
    { name: 'palisade-agent', level: 'debug' },
    pino.multistream([
      {
        level: options.level as pino.Level,
        stream: process.stdout.isTTY ? pretty({ colorize: true }) : process.stdout,
      },
      { level: (options.shipLevel ?? 'info') as pino.Level, stream: options.tap },
    ]),
  );
}
