// Where the test run's scratch databases come from: the PostgreSQL server of the suite's second
// run (and onTestPostgres, which sends it a CREATE or DROP DATABASE), and the names under which
// the projects' globalSetups hand their workers a ready database to start from
// (pglite-image.setup.ts, postgres-template.setup.ts; read by harness.ts).
import pg from 'pg';

/** The PostgreSQL server the suite's second run uses (TEST_DB=postgres). */
export const TEST_POSTGRES_URL =
  process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A file: an initialised PGlite data folder as `dumpDataDir` makes it (no initdb to run). */
export const PGLITE_TEST_IMAGE = 'PGLITE_TEST_IMAGE';
/** A file: the same with the migrations applied. */
export const PGLITE_TEST_MIGRATED_IMAGE = 'PGLITE_TEST_MIGRATED_IMAGE';
/** A database of TEST_POSTGRES_URL's server with the migrations applied, to copy. */
export const POSTGRES_TEST_TEMPLATE = 'POSTGRES_TEST_TEMPLATE';

/** Runs one statement (CREATE or DROP DATABASE) on TEST_POSTGRES_URL's server, then hangs up. */
export async function onTestPostgres(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
