import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  until,
  createScratchDatabase,
  TEST_POSTGRES_URL,
  type ScratchDatabase,
} from '../test/harness.js';
import { DatabaseUnavailableError } from './errors.js';

const pglite = process.env['TEST_DB'] !== 'postgres';
const ONLY_SERVER = '(PostgreSQL server only: PGlite has no connections to terminate)';

describe.skipIf(pglite)(
  'the database seam when connections are lost (PostgreSQL server only: PGlite has no connection to lose)',
  () => {
    let scratch: ScratchDatabase;
    let admin: pg.Client;
    let name: string;
    const terminate = async (where: string, params: unknown[] = []) =>
      (
        await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND ${where}`,
          [name, ...params],
        )
      ).rowCount ?? 0;

    beforeAll(async () => {
      scratch = await createScratchDatabase();
      name = new URL(scratch.url ?? '').pathname.slice(1);
      admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await admin.connect();
    });
    afterAll(async () => {
      await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`);
      await admin.end();
      await scratch.drop();
    });

    it(`a transaction whose backend is terminated between statements answers database_unavailable ${ONLY_SERVER}`, async () => {
      // The connection is checked out and idle in the transaction when it is lost: nothing of
      // the caller's is running on it, yet the process must hear of it without crashing.
      const attempt = scratch.db.transaction(async (tx) => {
        const [row] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        expect(await terminate('pid = $2', [row?.pid ?? 0])).toBe(1);
        await until('the client to hear of it', async () => {
          const [gone] = await admin
            .query<{ n: number }>(
              'SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1',
              [row?.pid ?? 0],
            )
            .then((result) => result.rows);
          return gone?.n === 0 ? true : undefined;
        });
        await tx.query('SELECT 1');
      });
      await expect(attempt).rejects.toBeInstanceOf(DatabaseUnavailableError);
      await expect(attempt).rejects.toMatchObject({
        code: 'database_unavailable',
        message: 'The database connection was lost; try again.',
      });
      expect(await scratch.db.query<{ ok: number }>('SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
    });

    it(`LISTEN comes back by itself after its connection is lost and says so ${ONLY_SERVER}`, async () => {
      const heard: string[] = [];
      let reconnects = 0;
      const stop = await scratch.db.listen(
        'reconnect_test',
        (payload) => heard.push(payload),
        () => (reconnects += 1),
      );
      try {
        expect(await terminate(`query LIKE 'LISTEN%'`)).toBe(1);
        await until('a reconnect', () => (reconnects === 1 ? true : undefined));
        await scratch.db.query("SELECT pg_notify('reconnect_test', 'after')");
        await until('the notification', () => (heard.includes('after') ? true : undefined));

        // Down for longer than a retry or two: it keeps trying until the database is back.
        await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
        expect(await terminate('true')).toBeGreaterThan(0);
        await expect(scratch.db.query('SELECT 1')).rejects.toBeInstanceOf(DatabaseUnavailableError);
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(reconnects).toBe(1);
        await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`);
        await until('a second reconnect', () => (reconnects === 2 ? true : undefined));
        await scratch.db.query("SELECT pg_notify('reconnect_test', 'again')");
        await until('the next notification', () => (heard.includes('again') ? true : undefined));
      } finally {
        await stop();
      }
    });
  },
);
