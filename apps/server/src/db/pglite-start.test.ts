import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPglite } from './pglite-start.js';

/** The parts of PGlite's emscripten file system this test reads. */
interface EmscriptenFiles {
  stat(file: string): { size: number };
  writeFile(file: string, data: string): void;
}

const filesOf = (pglite: PGlite) => pglite.Module.FS as unknown as EmscriptenFiles;

// The data folder's file system answers a missing file without an exception from Node (see
// answerMissingFilesWithoutExceptions); what PostgreSQL sees must be what it saw before.
describe('the embedded database on disk', () => {
  let folder: string;
  let db: PGlite;
  let files: EmscriptenFiles;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'palisade-pglite-start-'));
    db = await startPglite(path.join(folder, 'pglite'));
    files = filesOf(db);
  }, 120_000);
  afterAll(async () => {
    await db.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('looks missing files up without Node throwing (the PGlite in use has the expected NODEFS)', () => {
    const nodeFs = (db.Module as unknown as { NODEFS: { node_ops: { lookup: { name: string } } } })
      .NODEFS;
    expect(nodeFs.node_ops.lookup.name).toBe('lookupWithoutThrowing');
  });

  it('answers a missing file with ENOENT, and finds it once it is written', () => {
    const file = '/pglite/data/base/missing_fsm';
    expect(() => files.stat(file)).toThrow(expect.objectContaining({ errno: 44 }));
    files.writeFile(file, 'x');
    expect(files.stat(file).size).toBe(1);
  });

  it('keeps a table whose indexes split pages, across a restart', async () => {
    await db.exec(`CREATE TABLE t (id int PRIMARY KEY, label text);
                   CREATE INDEX t_label ON t (label);
                   INSERT INTO t SELECT n, md5(n::text) FROM generate_series(1, 20000) n;`);
    await db.close();
    db = await startPglite(path.join(folder, 'pglite'));
    files = filesOf(db);
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM t WHERE label > 'f'`,
    );
    expect(rows[0]?.n).toBeGreaterThan(0);
    expect(rows[0]?.n).toBeLessThan(20000);
  }, 120_000);
});
