import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../test/harness.js';
import { openDatabase, type Database } from './client.js';
import { migrate } from './migrate.js';
import { scheduledJobs } from './scheduled-jobs.js';

const HOUR_MS = 3_600_000;

describe('scheduled jobs: a due job is claimed by one replica', () => {
  let scratch: ScratchDatabase;
  /** A second replica's connections: on PostgreSQL its own pool, on PGlite the same database. */
  let other: Database;

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    await migrate(scratch.db);
    other = scratch.url
      ? await openDatabase({ databaseUrl: scratch.url, dataDir: '' })
      : scratch.db;
  });
  afterAll(async () => {
    if (other !== scratch.db) await other.close();
    await scratch.drop();
  });

  const claim = (db: Database, name: string, replica: string, leaseMs = HOUR_MS) =>
    scheduledJobs.claim(db, { name, leaseMs, replica });

  it('gives a job never run to exactly one of many claims made at once', async () => {
    const claims = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        claim(i % 2 === 0 ? scratch.db : other, 'race', `replica-${i % 2}`),
      ),
    );
    expect(claims.filter(Boolean)).toEqual([{ name: 'race', run: 1 }]);
  });

  it('is not due again until its period after the run started, then once', async () => {
    const first = await claim(scratch.db, 'hourly', 'a');
    expect(first).toEqual({ name: 'hourly', run: 1 });
    await scheduledJobs.finish(scratch.db, first!, { after: 'start', inMs: HOUR_MS });
    expect(await claim(other, 'hourly', 'b')).toBeUndefined();
    await scratch.db.query(
      `UPDATE scheduled_jobs SET due_at = now() - interval '1 second' WHERE name = 'hourly'`,
    );
    const [a, b] = await Promise.all([
      claim(scratch.db, 'hourly', 'a'),
      claim(other, 'hourly', 'b'),
    ]);
    expect([a, b].filter(Boolean)).toEqual([{ name: 'hourly', run: 2 }]);
  });

  it('retries a failed run after the retry wait, not the period', async () => {
    const run = await claim(scratch.db, 'failing', 'a');
    await scheduledJobs.finish(scratch.db, run!, { after: 'now', inMs: 0 });
    expect(await claim(other, 'failing', 'b')).toEqual({ name: 'failing', run: 2 });
  });

  it('lets another replica take over a run whose lease passed; the late finish changes nothing', async () => {
    const stalled = await claim(scratch.db, 'stalled', 'a', 0);
    const takeover = await claim(other, 'stalled', 'b');
    expect(takeover).toEqual({ name: 'stalled', run: 2 });
    await scheduledJobs.finish(scratch.db, stalled!, { after: 'now', inMs: 0 });
    const [row] = await scratch.db.query<{ started_by: string; due_later: boolean }>(
      `SELECT started_by, due_at > now() + interval '30 minutes' AS due_later
         FROM scheduled_jobs WHERE name = 'stalled'`,
    );
    expect(row).toEqual({ started_by: 'b', due_later: true });
  });
});
