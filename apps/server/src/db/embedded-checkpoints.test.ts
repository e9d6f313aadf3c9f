import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteDatabase, type Database } from './client.js';
import { checkpointIfDue } from './embedded-checkpoints.js';
import { startPglite } from './pglite-start.js';

const MB = 1024 * 1024;

/** Where recovery would start after a crash: moves only when a checkpoint is taken. */
async function redoPoint(db: Database): Promise<string> {
  const [row] = await db.query<{ redo: string }>(
    'SELECT redo_lsn::text AS redo FROM pg_control_checkpoint()',
  );
  return row?.redo ?? '';
}

/** About `mb` megabytes of WAL. */
const writeWal = (db: Database, mb: number) =>
  db.query(`INSERT INTO filler SELECT repeat('x', 1000) FROM generate_series(1, ${mb * 1000})`);

// PGlite has no checkpointer process (single-user PostgreSQL): the server takes its checkpoints.
describe('checkpoints of the embedded database', () => {
  let folder: string;
  let db: Database;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'palisade-checkpoints-'));
    db = pgliteDatabase(await startPglite(path.join(folder, 'pglite')));
    await db.query('CREATE TABLE filler (pad text)');
  }, 120_000);
  afterAll(async () => {
    await db.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('takes one once the WAL since the last one reaches the limit, and not before', async () => {
    const limits = { walBytes: 4 * MB, everyMs: 3_600_000 };
    await checkpointIfDue(db, { walBytes: 0, everyMs: 0 });
    const start = await redoPoint(db);
    await writeWal(db, 1);
    expect(await checkpointIfDue(db, limits)).toBe(false);
    expect(await redoPoint(db)).toBe(start);
    await writeWal(db, 4);
    expect(await checkpointIfDue(db, limits)).toBe(true);
    expect(await redoPoint(db)).not.toBe(start);
    expect(await checkpointIfDue(db, limits)).toBe(false);
  });

  it('takes a timed one only when something was written since the last', async () => {
    const timed = { walBytes: 1024 * MB, everyMs: 0 };
    await checkpointIfDue(db, { walBytes: 0, everyMs: 0 });
    const start = await redoPoint(db);
    expect(await checkpointIfDue(db, timed)).toBe(false);
    await db.query(`INSERT INTO filler VALUES ('one row')`);
    expect(await checkpointIfDue(db, timed)).toBe(true);
    expect(await redoPoint(db)).not.toBe(start);
  });
});
