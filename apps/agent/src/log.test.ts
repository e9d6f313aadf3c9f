import { describe, expect, it } from 'vitest';
import type { LogLine } from './client/api.js';
import { LOG_LINGER_MS, LogTap, queueLogLine, toLogLine } from './log.js';
import { Batcher } from './spool/batcher.js';
import { Spool } from './spool/spool.js';

describe('agent log lines', () => {
  it('turns a pino line into a protocol line with its fields and error message', () => {
    const line = JSON.stringify({
      level: 50,
      time: Date.UTC(2026, 10, 22, 1, 2, 3),
      pid: 1,
      hostname: 'sensor',
      name: 'palisade-agent',
      device_id: 7,
      err: { type: 'Error', message: 'fetch failed', stack: '…' },
      attempt: 3,
      msg: 'heartbeat failed',
    });
    expect(toLogLine(line)).toEqual({
      deviceId: 7,
      line: {
        time: '2026-11-22T01:02:03.000Z',
        level: 'error',
        msg: 'heartbeat failed err=fetch failed attempt=3',
      },
    });
    expect(toLogLine('not json')).toBeNull();
  });

  it("hands each device's lines to that device only", () => {
    const tap = new LogTap();
    const seen: string[] = [];
    const detach = tap.attach(1, (l) => seen.push(l.msg));
    tap.write(JSON.stringify({ level: 30, device_id: 1, msg: 'mine' }));
    tap.write(JSON.stringify({ level: 30, device_id: 2, msg: 'theirs' }));
    tap.write(JSON.stringify({ level: 30, msg: 'nobody' }));
    detach();
    tap.write(JSON.stringify({ level: 30, device_id: 1, msg: 'after' }));
    expect(seen).toEqual(['mine']);
  });

  it('ships a warning at once with the lines before it; other lines wait for company', async () => {
    const spool = Spool.inMemory<LogLine>();
    const batcher = new Batcher<LogLine>(spool, { maxItems: 500, maxDelayMs: LOG_LINGER_MS });
    const line = (level: LogLine['level'], msg: string) => ({
      time: '2026-11-30T00:00:00Z',
      level,
      msg,
    });
    await queueLogLine(batcher, line('info', 'applying bundle'));
    await queueLogLine(batcher, line('info', 'bundle applied'));
    expect(spool.size).toBe(0);
    await queueLogLine(batcher, line('warn', 'firewall changed outside Palisade'));
    expect(spool.size).toBe(1);
    const batch = await spool.read(spool.lastSeq);
    expect(batch.items.map((l) => l.msg)).toEqual([
      'applying bundle',
      'bundle applied',
      'firewall changed outside Palisade',
    ]);
    await queueLogLine(batcher, line('error', 'bundle rejected'));
    expect(spool.size).toBe(2);
    batcher.discard();
  });
});
