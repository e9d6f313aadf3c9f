import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteDatabase, type Database } from './client.js';
import { analyzeDueTables } from './embedded-analyze.js';
import { startPglite } from './pglite-start.js';

/** The statistics the choice reads are sent on when the backend idles; now, for the test. */
const flushStatistics = (db: Database) => db.query('SELECT pg_stat_force_next_flush()');
const add = async (db: Database, table: string, rows: number) => {
  await db.query(`INSERT INTO ${table} SELECT g % 7 FROM generate_series(1, ${rows}) g`);
  await flushStatistics(db);
};
const columnStatistics = async (db: Database, table: string) => {
  const [row] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM pg_stats WHERE tablename = $1',
    [table],
  );
  return row?.n ?? 0;
};
const NO_BUDGET = 0;
const AMPLE_BUDGET = 60_000;

// PGlite has no autovacuum (single-user PostgreSQL): the server gathers the planner's statistics.
describe('analysing the embedded database', () => {
  let db: Database;
  beforeAll(async () => {
    db = pgliteDatabase(await startPglite(undefined));
  }, 120_000);
  afterAll(() => db.close());

  it('analyses a table once a tenth of its rows (and 50) changed since its last ANALYZE', async () => {
    await db.query('CREATE TABLE grown (n int)');
    await add(db, 'grown', 1000);
    expect(await analyzeDueTables(db, AMPLE_BUDGET)).toEqual(['public.grown']);
    expect(await columnStatistics(db, 'grown')).toBe(1);
    await flushStatistics(db);
    expect(await analyzeDueTables(db, AMPLE_BUDGET)).toEqual([]);
    await add(db, 'grown', 140); // 50 + 10 % of 1,000 is 150
    expect(await analyzeDueTables(db, AMPLE_BUDGET)).toEqual([]);
    await add(db, 'grown', 20);
    expect(await analyzeDueTables(db, AMPLE_BUDGET)).toEqual(['public.grown']);
  });

  it('analyses tables that hold rows and were never analysed, though no change was counted', async () => {
    await db.query('CREATE TABLE kept (n int)');
    await db.query('CREATE TABLE empty (n int)');
    await add(db, 'kept', 10);
    await db.query('SELECT pg_stat_reset()');
    const analysed = await analyzeDueTables(db, AMPLE_BUDGET);
    expect(analysed).toContain('public.kept');
    expect(analysed).not.toContain('public.empty');
    expect(await columnStatistics(db, 'kept')).toBe(1);
  });

  it('starts no further ANALYZE once its budget has passed, the most changed table first', async () => {
    await db.query('CREATE TABLE busier (n int)');
    await db.query('CREATE TABLE quieter (n int)');
    await add(db, 'busier', 2000);
    await add(db, 'quieter', 1000);
    expect(await analyzeDueTables(db, NO_BUDGET)).toEqual(['public.busier']);
    expect(await analyzeDueTables(db, NO_BUDGET)).toEqual(['public.quieter']);
  });
});
