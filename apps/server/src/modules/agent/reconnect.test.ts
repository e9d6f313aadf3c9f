import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  until,
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  TEST_POSTGRES_URL,
  type TestServer,
} from '../../test/harness.js';

const pglite = process.env['TEST_DB'] !== 'postgres';

// Notifications sent while the LISTEN connection is down are never delivered. The changes here
// are made in SQL, with no NOTIFY at all: only "everything may have changed" on reconnect can
// bring them to the agents.
describe.skipIf(pglite)(
  'agents after the LISTEN connection was lost (PostgreSQL server only: PGlite has no connection to lose)',
  () => {
    let server: TestServer;
    let admin: pg.Client;

    beforeAll(async () => {
      server = await startTestServer();
      admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await admin.connect();
    });
    afterAll(async () => {
      await admin.end();
      await server.close();
    });

    it('streams re-read their versions and heartbeats see a revoked token (PostgreSQL server only: PGlite has no connections to terminate)', async () => {
      const headers = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
      const device = async (name: string) => {
        const created = await api(server.app, {
          method: 'POST',
          url: '/devices/',
          headers,
          payload: { name, password: 'device-secret-1234' },
        });
        const id = created.json<{ id: number }>().id;
        const login = await api(server.app, {
          method: 'POST',
          url: '/agent/login',
          payload: { device_id: id, password: 'device-secret-1234', protocol: 1 },
        });
        const authorization = `Bearer ${login.json<{ access_token: string }>().access_token}`;
        return { id, authorization };
      };
      // One device's stream hears of a new version; another's token is revoked (a revoked
      // token's stream would end rather than hear anything).
      const agent = await device('sensor-1');
      const revoked = await device('sensor-2');
      const beat = (cpu: number) =>
        api(server.app, {
          method: 'POST',
          url: '/agent/heartbeat',
          headers: { authorization: revoked.authorization },
          payload: {
            state: 'running',
            metrics: {
              cpu,
              memory_used: 1,
              memory_total: 2,
              disk_used: 1,
              disk_total: 2,
              net_in: 0,
              net_out: 0,
            },
            local: { config_version: null, policy_version: null },
            agent_version: '0.1.0',
          },
        });
      expect((await beat(1)).statusCode).toBe(200);
      expect((await beat(2)).statusCode).toBe(200);

      await server.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = server.app.server.address() as AddressInfo;
      const controller = new AbortController();
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/agent/events`, {
        headers: { authorization: agent.authorization },
        signal: controller.signal,
      });
      if (!response.body) throw new Error('no event stream');
      const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
      const versions: number[] = [];
      let buffer = '';
      const pump = async () => {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += new TextDecoder().decode(value);
          for (const [, data] of buffer.matchAll(/event: versions\ndata: (.*)\n\n/g)) {
            versions.push((JSON.parse(data ?? '{}') as { config_version: number }).config_version);
          }
          buffer = buffer.slice(buffer.lastIndexOf('\n\n') + 2);
        }
      };
      pump().catch(() => undefined);
      const first = await until('the first versions event', () => versions[0]);

      const [{ name } = { name: '' }] = await server.db.query<{ name: string }>(
        'SELECT current_database() AS name',
      );
      await server.db.query(
        'UPDATE devices SET config_version = config_version + 1 WHERE id = $1',
        [agent.id],
      );
      await server.db.query('UPDATE devices SET token_version = token_version + 1 WHERE id = $1', [
        revoked.id,
      ]);
      const killed = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND query = 'LISTEN "palisade_devices"'`,
        [name],
      );
      expect(killed.rowCount).toBe(1);

      await until('the version changed during the gap', () =>
        versions.includes(first + 1) ? true : undefined,
      );
      // The device's remembered row was forgotten too: the revoked token is refused.
      expect((await beat(3)).statusCode).toBe(401);
      controller.abort();
    });
  },
);
