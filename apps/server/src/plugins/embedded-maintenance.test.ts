import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteDatabase, type Database } from '../db/client.js';
import { startPglite } from '../db/pglite-start.js';
import type { AppContext } from './context.js';
import { embeddedMaintenancePlugin } from './embedded-maintenance.js';

const MB = 1024 * 1024;

// The server's own checkpointer, ANALYZE and vacuum for PGlite, running by themselves on a timer.
describe('upkeep of the embedded database', () => {
  let db: Database;
  beforeAll(async () => {
    db = pgliteDatabase(await startPglite(undefined));
    await db.query('CREATE TABLE churned (pad text)');
  }, 120_000);
  afterAll(() => db.close());

  it('takes checkpoints, analyses and vacuums while the server runs', async () => {
    const app = Fastify();
    app.decorate('ctx', { db } as AppContext);
    await app.register(embeddedMaintenancePlugin, {
      checkpoints: { walBytes: 2 * MB, everyMs: 3_600_000 },
      lookEveryMs: 20,
    });
    await app.ready();
    try {
      const state = async () => {
        const [row] = await db.query<{ redo: string; analyses: number; vacuums: number }>(
          `SELECT (SELECT redo_lsn::text FROM pg_control_checkpoint()) AS redo,
                  (SELECT analyze_count::int FROM pg_stat_user_tables WHERE relname = 'churned') AS analyses,
                  (SELECT vacuum_count::int FROM pg_stat_user_tables WHERE relname = 'churned') AS vacuums`,
        );
        return row;
      };
      const before = await state();
      await db.query(`INSERT INTO churned SELECT repeat('x', 1000) FROM generate_series(1, 3000)`);
      await db.query('DELETE FROM churned');
      await db.query('SELECT pg_stat_force_next_flush()');
      await expect
        .poll(async () => (await state())?.redo, { timeout: 10_000 })
        .not.toBe(before?.redo);
      await expect
        .poll(async () => (await state())?.analyses, { timeout: 10_000 })
        .toBeGreaterThanOrEqual(1);
      await expect.poll(async () => (await state())?.vacuums, { timeout: 10_000 }).toBe(1);
    } finally {
      await app.close();
    }
  });
});
