import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../client/api.js';
import { Batcher } from './batcher.js';
import { SpoolSender } from './sender.js';
import { Spool, type SpoolBatch } from './spool.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-spool-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('spool', () => {
  it('keeps unacknowledged batches across a restart and drops acknowledged ones', async () => {
    const spool = await Spool.open<string>(dir, 'alerts');
    expect(await spool.append(['a', 'b'], { at: 1 })).toBe(1);
    expect(await spool.append(['c'], { at: 2 })).toBe(2);
    expect(await spool.append(['d'], { at: 3 })).toBe(3);
    await spool.acknowledge(1);

    const reopened = await Spool.open<string>(dir, 'alerts');
    expect(reopened.pendingSeqs()).toEqual([2, 3]);
    expect(reopened.cursor).toEqual({ at: 3 });
    expect((await reopened.oldest())?.items).toEqual(['c']);
    expect(await reopened.append(['e'])).toBe(4); // numbers are never reused
    await reopened.acknowledge(3);
    expect(reopened.pendingSeqs()).toEqual([4]);
    expect(await readdir(path.join(dir, 'alerts'))).toEqual(['000000000004.json']);
  });

  it('in memory: numbers, acknowledges, splits and drops as on disk, writing no file', async () => {
    const dropped: number[] = [];
    const spool = Spool.inMemory<string>({ maxBytes: 180, onDrop: (seq) => dropped.push(seq) });
    expect(await spool.append(['a', 'b'], { at: 1 })).toBe(1);
    expect(await spool.append(['c'], { at: 2 })).toBe(2);
    expect(spool.cursor).toEqual({ at: 2 });
    await spool.acknowledge(1);
    expect(spool.pendingSeqs()).toEqual([2]);
    expect((await spool.oldest())?.items).toEqual(['c']);
    expect(await spool.append(['d', 'e'])).toBe(3);
    expect(await spool.split(3)).toEqual([4, 5]);
    expect((await spool.read(5)).items).toEqual(['e']);
    // An ack above every number given: the waiting batches are renumbered after it.
    await spool.acknowledge(10);
    expect(spool.pendingSeqs()).toEqual([11, 12, 13]);
    expect((await spool.read(11)).items).toEqual(['c']);
    // Past its size the oldest batches go.
    await spool.append(['a long line that fills the spool past its limit']);
    expect(dropped.length).toBeGreaterThan(0);
    expect(await readdir(dir)).toEqual([]);
  });

  it('takes the newest batch as the truth after a crash before its state was saved', async () => {
    const spool = await Spool.open<string>(dir, 'logs');
    await spool.append(['one'], { at: 1 });
    const stateFile = path.join(dir, 'logs.state.json');
    const before = await readFile(stateFile, 'utf8');
    await spool.append(['two'], { at: 2 });
    await writeFile(stateFile, before); // as if the process died between the two writes

    const reopened = await Spool.open<string>(dir, 'logs');
    expect(reopened.lastSeq).toBe(2);
    expect(reopened.cursor).toEqual({ at: 2 });
    expect(await reopened.append(['three'])).toBe(3);
  });

  it('renumbers waiting batches after an ack above every number it gave', async () => {
    const spool = await Spool.open<string>(dir, 'alerts');
    await spool.append(['x']);
    await spool.append(['y']);
    await spool.acknowledge(40); // the server knew an older numbering of this device
    expect(spool.pendingSeqs()).toEqual([41, 42]);
    expect((await spool.read(41)).items).toEqual(['x']);
    expect((await spool.read(42)).items).toEqual(['y']);
    expect(await spool.append(['z'])).toBe(43);
  });

  it('numbers concurrent appends apart and keeps the cursor of sources without one', async () => {
    const spool = await Spool.open<number>(dir, 'alerts');
    await spool.append([0], { ino: 5, offset: 10 });
    const seqs = await Promise.all(Array.from({ length: 20 }, (_, i) => spool.append([i + 1])));
    expect([...seqs].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    const reopened = await Spool.open<number>(dir, 'alerts');
    expect(reopened.pendingSeqs()).toHaveLength(21);
    expect(reopened.cursor).toEqual({ ino: 5, offset: 10 });
  });

  it('drops the oldest batches beyond its size limit', async () => {
    const dropped: number[] = [];
    const spool = await Spool.open<string>(dir, 'alerts', {
      maxBytes: 300,
      onDrop: (seq) => dropped.push(seq),
    });
    for (let i = 0; i < 6; i++) await spool.append(['x'.repeat(80)]);
    expect(dropped.length).toBeGreaterThan(0);
    expect(spool.pendingSeqs()).toEqual(
      [...Array(6 - dropped.length).keys()].map((i) => i + 1 + dropped.length),
    );
  });
});

describe('spool sender', () => {
  it('delivers every batch once, in order, through failures, and empties the spool', async () => {
    const spool = await Spool.open<number>(dir, 'alerts');
    for (let i = 0; i < 5; i++) await spool.append([i * 2, i * 2 + 1]);
    const stored: number[] = [];
    let ack = 0;
    let calls = 0;
    const sender = new SpoolSender<number>({
      spool,
      backoff: { baseMs: 1, maxMs: 2 },
      send: (batch: SpoolBatch<number>) => {
        calls += 1;
        // Every third call fails: before storing, or after storing with the answer lost.
        if (calls % 3 === 0) return Promise.reject(new Error('network down'));
        if (batch.seq > ack) {
          stored.push(...batch.items);
          ack = batch.seq;
        }
        if (calls % 3 === 1 && calls > 1) return Promise.reject(new Error('answer lost'));
        return Promise.resolve({ ack });
      },
    });
    sender.start();
    for (let i = 0; i < 4000 && spool.size > 0; i++) await new Promise((r) => setTimeout(r, 5));
    await sender.stop();
    expect(spool.size).toBe(0);
    expect(stored).toEqual([...Array(10).keys()]);
    expect(calls).toBeGreaterThan(5);
  }, 30_000);

  it('splits a batch the server refuses as too large, and drops a lone oversized item', async () => {
    const spool = await Spool.open<string>(dir, 'alerts');
    await spool.append(['a', 'b', 'c', 'BIG', 'd']);
    const stored: string[] = [];
    const dropped: string[][] = [];
    let ack = 0;
    const sender = new SpoolSender<string>({
      spool,
      backoff: { baseMs: 1, maxMs: 2 },
      send: (batch) => {
        // The server takes at most two items, and never BIG.
        if (batch.items.length > 2 || batch.items.includes('BIG')) {
          return Promise.reject(new ApiError(413, 'too large'));
        }
        stored.push(...batch.items);
        ack = Math.max(ack, batch.seq);
        return Promise.resolve({ ack });
      },
      onDrop: (batch) => dropped.push(batch.items),
    });
    sender.start();
    for (let i = 0; i < 4000 && spool.size > 0; i++) await new Promise((r) => setTimeout(r, 5));
    await sender.stop();
    expect(spool.size).toBe(0);
    expect([...stored].sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(dropped).toEqual([['BIG']]);
  }, 30_000);
});

describe('spool sender and a server that refuses', () => {
  it('drops a batch refused as invalid and goes on; retries what may pass; reports rejected items', async () => {
    const spool = await Spool.open<string>(dir, 'alerts');
    for (const items of [['a'], ['BAD'], ['b', 'odd'], ['c']]) await spool.append(items);
    const stored: string[] = [];
    const refused: [number, number][] = [];
    const rejected: [number, unknown][] = [];
    // The first tries of ['c'] meet answers that may pass: a stale token, throttling, an outage.
    const passing = [401, 429, 503];
    let ack = 0;
    const sender = new SpoolSender<string>({
      spool,
      backoff: { baseMs: 1, maxMs: 2 },
      send: (batch) => {
        if (batch.items.includes('BAD')) return Promise.reject(new ApiError(422, 'invalid'));
        const status = batch.items.includes('c') ? passing.shift() : undefined;
        if (status !== undefined) return Promise.reject(new ApiError(status, 'not now'));
        stored.push(...batch.items.filter((item) => item !== 'odd'));
        ack = batch.seq;
        const odd = batch.items.indexOf('odd');
        return Promise.resolve({
          ack,
          rejected: odd < 0 ? [] : [{ index: odd, reason: 'not a JSON object' }],
        });
      },
      onRefused: (batch, error) => refused.push([batch.seq, error.status]),
      onRejected: (batch, list) => rejected.push([batch.seq, list]),
    });
    sender.start();
    for (let i = 0; i < 4000 && spool.size > 0; i++) await new Promise((r) => setTimeout(r, 5));
    await sender.stop();
    expect(spool.size).toBe(0);
    expect(stored).toEqual(['a', 'b', 'c']);
    expect(refused).toEqual([[2, 422]]);
    expect(rejected).toEqual([[3, [{ index: 1, reason: 'not a JSON object' }]]]);
    expect(passing).toEqual([]);
    expect(ack).toBe(4);
  }, 30_000);
});

describe('batcher', () => {
  it('keeps batches within the item and byte limits', async () => {
    const spool = await Spool.open<string>(dir, 'alerts');
    const batcher = new Batcher<string>(spool, { maxItems: 3, maxBytes: 100, maxDelayMs: 60_000 });
    for (const item of ['x'.repeat(60), 'y'.repeat(30), 'z'.repeat(30), 'a', 'b', 'c', 'd']) {
      await batcher.add(item, { at: item });
    }
    await batcher.flush();
    const batches = await Promise.all(spool.pendingSeqs().map((seq) => spool.read(seq)));
    expect(batches.map((b) => b.items.map((i) => i[0]).join(''))).toEqual(['xy', 'z', 'abc', 'd']);
    expect(batches.at(-1)?.cursor).toEqual({ at: 'd' });
  });
});
