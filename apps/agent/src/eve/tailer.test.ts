import { appendFile, mkdtemp, rename, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Random } from '../simulate/random.js';
import { Spool } from '../spool/spool.js';
import { loadEveCorpus } from '../testing/corpus.js';
import { EveCollector } from './collector.js';
import { parseEveLine, type EveEvent } from './tailer.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-tailer-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function everyBatch(stateDir: string): Promise<{ seqs: number[]; events: EveEvent[] }> {
  const spool = await Spool.open<EveEvent>(stateDir, 'alerts');
  const seqs = spool.pendingSeqs();
  const events: EveEvent[] = [];
  for (const seq of seqs) events.push(...(await spool.read(seq)).items);
  return { seqs, events };
}

function collector(eve: string, spool: Spool<EveEvent>): EveCollector {
  return new EveCollector({
    file: eve,
    spool,
    batch: { maxItems: 37, maxDelayMs: 3_600_000 },
  });
}

describe('eve.json tailer', () => {
  it('parses alert lines and ignores other events', () => {
    expect(parseEveLine('{"event_type":"flow","alert":1}')).toBeNull();
    expect(parseEveLine('{"event_type":"alert","src_ip":"10.0.0.1","alert":{}}')).toEqual({
      event_type: 'alert',
      src_ip: '10.0.0.1',
      alert: {},
    });
    expect(typeof parseEveLine('{"event_type":"alert",')).toBe('string');
  });

  it('replays the corpus through rotations, a truncation and two restarts: every alert once', async () => {
    const corpus = loadEveCorpus();
    const lines = corpus.flatMap((f) => f.lines);
    const text = lines.map((l) => `${l}\n`).join('');
    const expected = lines
      .map((l) => JSON.parse(l) as EveEvent)
      .filter((e) => e.event_type === 'alert');
    expect(expected.length).toBeGreaterThan(1500);

    const eve = path.join(dir, 'eve.json');
    const state = path.join(dir, 'state');
    const random = new Random(42);
    let spool = await Spool.open<EveEvent>(state, 'alerts');
    let tail = collector(eve, spool);
    let written = 0;
    const bytes = Buffer.from(text);
    const total = bytes.length;
    /** Appends up to `limit` (a fraction of the corpus) in random chunks that split lines. */
    const writeUntil = async (file: string, limit: number, poll: boolean) => {
      while (written < total * limit) {
        const size = random.int(1, 64 * 1024);
        const chunk = bytes.subarray(written, Math.min(total, written + size));
        await appendFile(file, chunk);
        written += chunk.length;
        if (poll && random.next() < 0.6) await tail.poll();
      }
    };
    /** Writes to the end of the current line (rotation tools act between lines). */
    const finishLine = async (file: string) => {
      const end = bytes.indexOf(10, written);
      const stop = end < 0 ? total : end + 1;
      await appendFile(file, bytes.subarray(written, stop));
      written = stop;
    };

    await writeUntil(eve, 0.2, true);
    // Rotation by rename; Suricata goes on writing to the renamed file until it reopens.
    await rename(eve, path.join(dir, 'eve.json.1'));
    await writeUntil(path.join(dir, 'eve.json.1'), 0.25, true);
    await finishLine(path.join(dir, 'eve.json.1'));
    await tail.poll();
    await writeUntil(eve, 0.4, true);

    // Graceful restart; meanwhile more lines and another rotation.
    await tail.stop();
    await writeUntil(eve, 0.45, false);
    await finishLine(eve);
    await rename(eve, path.join(dir, 'eve.json.2'));
    await writeUntil(eve, 0.5, false);
    spool = await Spool.open<EveEvent>(state, 'alerts');
    tail = collector(eve, spool);
    await writeUntil(eve, 0.7, true);

    // Crash: the old collector is abandoned with alerts buffered in memory, not in the spool.
    await writeUntil(eve, 0.75, false);
    await tail.stop({ flush: false });
    spool = await Spool.open<EveEvent>(state, 'alerts');
    tail = collector(eve, spool);
    await writeUntil(eve, 0.85, true);

    // copytruncate: everything read, then the file is emptied in place.
    await finishLine(eve);
    await tail.poll();
    await truncate(eve, 0);
    await tail.poll();
    await writeUntil(eve, 1, true);
    await tail.poll();
    await tail.stop();

    const { seqs, events } = await everyBatch(state);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(events.length).toBe(expected.length);
    expect(events).toEqual(expected);
  }, 120_000);

  it('skips what the file held before the first run when told to start at the end', async () => {
    const eve = path.join(dir, 'eve.json');
    const alert = (n: number) => JSON.stringify({ event_type: 'alert', n });
    await writeFile(eve, `${alert(1)}\n${alert(2)}\n`);
    const spool = await Spool.open<EveEvent>(path.join(dir, 's'), 'alerts');
    const tail = new EveCollector({
      file: eve,
      spool,
      startAtEnd: true,
      batch: { maxItems: 10, maxDelayMs: 3_600_000 },
    });
    await tail.poll();
    await appendFile(eve, `${alert(3)}\n${alert(4)}`); // the last line is still being written
    await tail.poll();
    await tail.stop();
    const { events } = await everyBatch(path.join(dir, 's'));
    expect(events).toEqual([{ event_type: 'alert', n: 3 }]);
  });
});
