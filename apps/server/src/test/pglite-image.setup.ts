// Vitest globalSetup of the server-pglite project. PGlite's initdb took 3–7 s for each in-memory
// database a test opened; starting from a dump of one already initialised takes under a second.
// A second dump has the migrations applied too, for the servers startTestServer starts (each
// spared 0.5–1.5 s of migrating). Both are made once per run, before the workers start, and the
// workers find them through PGLITE_TEST_IMAGE and PGLITE_TEST_MIGRATED_IMAGE
// (createScratchDatabase).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pgliteDatabase } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { startPglite } from '../db/pglite-start.js';
import { PGLITE_TEST_IMAGE, PGLITE_TEST_MIGRATED_IMAGE } from './scratch-images.js';

export default async function makePgliteImages(): Promise<() => Promise<void>> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'palisade-pglite-image-'));
  const save = async (name: string, image: Blob) => {
    const file = path.join(folder, name);
    await writeFile(file, Buffer.from(await image.arrayBuffer()));
    return file;
  };
  const initialised = await startPglite(undefined);
  const initdbImage = await initialised.dumpDataDir('none');
  await initialised.close();
  process.env[PGLITE_TEST_IMAGE] = await save('initdb.tar', initdbImage);

  const migrated = await startPglite(undefined, { image: initdbImage });
  await migrate(pgliteDatabase(migrated));
  process.env[PGLITE_TEST_MIGRATED_IMAGE] = await save(
    'migrated.tar',
    await migrated.dumpDataDir('none'),
  );
  await migrated.close();
  return () => rm(folder, { recursive: true, force: true });
}
