// Vitest globalSetup of the server-postgres project: one scratch database with the migrations
// applied, made once per run, which the servers startTestServer starts are copied from
// (`CREATE DATABASE … TEMPLATE`, createScratchDatabase) instead of migrating each their own
// (0.5–1 s each). The workers find its name in POSTGRES_TEST_TEMPLATE; it is dropped at the end.
import { openDatabase } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { scratchDbName } from '../../../../testing/scratch-db.mjs';
import { onTestPostgres, POSTGRES_TEST_TEMPLATE, TEST_POSTGRES_URL } from './scratch-images.js';

export default async function makePostgresTemplate(): Promise<() => Promise<void>> {
  const name = scratchDbName('template');
  await onTestPostgres(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  process.env[POSTGRES_TEST_TEMPLATE] = name;
  return () => onTestPostgres(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
