import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteDatabase, type Database } from './client.js';
import { vacuumMostDead } from './embedded-vacuum.js';
import { startPglite } from './pglite-start.js';

const size = async (db: Database, table: string) => {
  const [row] = await db.query<{ bytes: number }>('SELECT pg_relation_size($1)::int AS bytes', [
    table,
  ]);
  return row?.bytes ?? 0;
};
/** The statistics the choice reads are sent on when the backend idles; now, for the test. */
const flushStatistics = (db: Database) => db.query('SELECT pg_stat_force_next_flush()');
const fill = (db: Database, table: string) =>
  db.query(`INSERT INTO ${table} SELECT repeat('x', 200) FROM generate_series(1, 10000)`);

// PGlite has no autovacuum (single-user PostgreSQL): the server vacuums what retention deletes.
describe('vacuuming the embedded database', () => {
  let db: Database;
  beforeAll(async () => {
    db = pgliteDatabase(await startPglite(undefined));
    await db.query('CREATE TABLE churned (pad text)');
    await db.query('CREATE TABLE appended (pad text)');
  }, 120_000);
  afterAll(() => db.close());

  it('vacuums a table whose deleted rows pass the limit, so new rows reuse their space', async () => {
    await fill(db, 'churned');
    const full = await size(db, 'churned');
    await db.query('DELETE FROM churned');
    await fill(db, 'appended');
    await flushStatistics(db);
    expect(await vacuumMostDead(db)).toBe('public.churned');
    await fill(db, 'churned');
    expect(await size(db, 'churned')).toBe(full);
  });

  it('leaves tables alone whose rows were only added, or few deleted', async () => {
    await db.query(`DELETE FROM churned WHERE ctid IN (SELECT ctid FROM churned LIMIT 100)`);
    await flushStatistics(db);
    expect(await vacuumMostDead(db)).toBeUndefined();
  });
});
