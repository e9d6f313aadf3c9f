// Vitest globalSetup of the server-pglite project. PGlite's initdb took 3–7 s for each in-memory
// database a test opened; starting from a dump of one already initialised takes under a second.
// The dump is made once per run, before the workers start, and the workers find it through
// PGLITE_TEST_IMAGE (createScratchDatabase).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startPglite } from '../db/pglite-start.js';

export const PGLITE_TEST_IMAGE = 'PGLITE_TEST_IMAGE';

export default async function makePgliteImage(): Promise<() => Promise<void>> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'palisade-pglite-image-'));
  const db = await startPglite(undefined);
  const image = await db.dumpDataDir('none');
  await db.close();
  const file = path.join(folder, 'initdb.tar');
  await writeFile(file, Buffer.from(await image.arrayBuffer()));
  process.env[PGLITE_TEST_IMAGE] = file;
  return () => rm(folder, { recursive: true, force: true });
}
