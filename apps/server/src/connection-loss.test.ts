import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  until,
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createScratchDatabase,
  TEST_POSTGRES_URL,
} from './test/harness.js';
import { startServerProcess, type ServerProcess } from './test/server-process.js';

const pglite = process.env['TEST_DB'] !== 'postgres';
const WORKERS = 8;
const FAULTS = 3;

/** An agent's push channel as its agent reads it: every `versions` event, in order. */
async function versionStream(url: string, authorization: string) {
  const controller = new AbortController();
  const response = await fetch(`${url}api/v1/agent/events`, {
    headers: { authorization },
    signal: controller.signal,
  });
  if (!response.ok || !response.body) throw new Error(`no event stream: ${response.status}`);
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const decoder = new TextDecoder();
  const events: { config_version: number; policy_version: number }[] = [];
  let buffer = '';
  const pump = async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^data: (.*)$/m.exec(message)?.[1];
        if (message.includes('event: versions') && data) {
          events.push(JSON.parse(data) as { config_version: number; policy_version: number });
        }
      }
    }
  };
  pump().catch(() => undefined);
  return { events, close: () => controller.abort() };
}

describe('losing the database connection', { timeout: 240_000 }, () => {
  it.skipIf(pglite)(
    'answers 503 while it is gone and recovers by itself, never exiting (PostgreSQL server only: PGlite has no connections to terminate)',
    async () => {
      // The server process owns the database; the scratch handle keeps its name (and drops it).
      const scratch = await createScratchDatabase();
      const url = scratch.url ?? '';
      const dbName = new URL(url).pathname.slice(1);
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'palisade-dbfault-'));
      const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await admin.connect();
      let server: ServerProcess | undefined;
      try {
        server = await startServerProcess({
          DATABASE_URL: url,
          DATA_DIR: dataDir,
          ADMIN_EMAIL,
          ADMIN_PASSWORD,
        });
        const base = server.url;
        const call = async (
          method: string,
          route: string,
          authorization: string | undefined,
          payload?: unknown,
        ) => {
          const response = await fetch(`${base}api/v1${route}`, {
            method,
            headers: {
              ...(authorization ? { authorization } : {}),
              ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
            },
            body: payload === undefined ? undefined : JSON.stringify(payload),
          });
          const body: unknown = await response.json();
          return { status: response.status, body };
        };

        const signedIn = await fetch(`${base}api/v1/login/access-token`, {
          method: 'POST',
          body: new URLSearchParams({ username: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
        });
        const console_ = `Bearer ${((await signedIn.json()) as { access_token: string }).access_token}`;
        const variables = (homeNet: string) => ({ HOME_NET: homeNet, EXTERNAL_NET: '!$HOME_NET' });
        const profile = await call('POST', '/deviceconfigurationprofiles/', console_, {
          name: 'Branch',
          variables: variables('[10.0.0.0/8]'),
        });
        expect(profile.status).toBe(201);
        const profileId = (profile.body as { id: number }).id;
        const device = await call('POST', '/devices/', console_, {
          name: 'sensor-1',
          password: 'device-secret-1234',
          profile_id: profileId,
        });
        expect(device.status).toBe(201);
        const deviceId = (device.body as { id: number }).id;
        const login = await call('POST', '/agent/login', undefined, {
          device_id: deviceId,
          password: 'device-secret-1234',
          protocol: 1,
        });
        const agent = `Bearer ${(login.body as { access_token: string }).access_token}`;
        const stream = await versionStream(base, agent);
        const first = await until('the first versions event', () => stream.events[0]);

        // Writes of every kind, without pause, from several clients at once.
        const statuses = new Map<string, number>();
        const unavailable: unknown[] = [];
        let loading = true;
        let seq = 0;
        const write = (worker: number, turn: number) => {
          switch (turn % 4) {
            case 0:
              return call('POST', '/deviceconfigurationprofiles/', console_, {
                name: `load-${worker}-${turn}`,
                variables: variables('[192.168.0.0/16]'),
              });
            case 1:
              return call('POST', '/agent/heartbeat', agent, {
                state: turn % 2 === 0 ? 'running' : 'applying',
                local: { config_version: null, policy_version: null },
                agent_version: '0.1.0',
              });
            case 2:
              // Apply reports are written in groups, as heartbeats are: a lost group is a 503.
              return call('POST', '/agent/applied', agent, {
                config_version: turn,
                policy_version: worker,
                ok: true,
              });
            default:
              seq += 1;
              return call('POST', '/agent/logs', agent, {
                seq,
                lines: [{ time: new Date().toISOString(), level: 'info', msg: `line ${seq}` }],
              });
          }
        };
        const workers = Array.from({ length: WORKERS }, async (_, worker) => {
          for (let turn = 0; loading; turn += 1) {
            let outcome: string;
            try {
              const response = await write(worker, turn);
              outcome = String(response.status);
              if (response.status === 503) unavailable.push(response.body);
            } catch (error) {
              outcome = `no answer: ${String((error as Error).cause ?? error)}`;
            }
            statuses.set(outcome, (statuses.get(outcome) ?? 0) + 1);
          }
        });

        const terminated: number[] = [];
        for (let fault = 0; fault < FAULTS; fault += 1) {
          // Let writes run on fresh connections between two faults.
          await until('writes between faults', () => {
            const answered = [...statuses.values()].reduce((a, b) => a + b, 0);
            return answered >= (fault + 1) * 50 ? true : undefined;
          });
          const killed = await admin.query(
            'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
            [dbName],
          );
          terminated.push(killed.rowCount ?? 0);
        }
        await until('writes after the last fault', () => {
          const answered = [...statuses.values()].reduce((a, b) => a + b, 0);
          return answered >= (FAULTS + 1) * 50 ? true : undefined;
        });
        loading = false;
        await Promise.all(workers);

        expect(server.exit(), `the server exited:\n${server.output()}`).toBeUndefined();
        expect(
          terminated.every((count) => count > 0),
          `backends terminated: ${terminated.join(', ')}`,
        ).toBe(true);
        const outcomes = [...statuses.keys()];
        expect(
          outcomes.filter((status) => !/^2\d\d$/.test(status) && status !== '503'),
          `answers: ${JSON.stringify(Object.fromEntries(statuses))}\nserver:\n${server.output().slice(-6000)}`,
        ).toEqual([]);
        // Faults hit requests in flight (a few per fault), and those were told so.
        expect(unavailable.length).toBeGreaterThan(0);
        for (const body of unavailable) {
          expect(body).toEqual({
            msg: 'The database connection was lost; try again.',
            code: 'database_unavailable',
          });
        }

        // Down for a while (no connection can be had): not ready, writes answered 503, alive.
        await admin.query(`ALTER DATABASE ${dbName} WITH ALLOW_CONNECTIONS false`);
        await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [dbName],
        );
        const ready = await fetch(`${base}api/v1/ready`);
        expect(ready.status).toBe(503);
        expect(await ready.json()).toEqual({ status: 'unavailable' });
        expect((await fetch(`${base}api/v1/health`)).status).toBe(200);
        const refused = await call('POST', '/deviceconfigurationprofiles/', console_, {
          name: 'while down',
        });
        expect(refused).toEqual({
          status: 503,
          body: {
            msg: 'The database connection was lost; try again.',
            code: 'database_unavailable',
          },
        });
        await admin.query(`ALTER DATABASE ${dbName} WITH ALLOW_CONNECTIONS true`);

        // Afterwards: ready, writes succeed, and a change reaches the agent's open stream.
        await until('ready again', async () =>
          (await fetch(`${base}api/v1/ready`)).status === 200 ? true : undefined,
        );
        const after = await call('POST', '/deviceconfigurationprofiles/', console_, {
          name: 'after the fault',
        });
        expect(after.status).toBe(201);
        for (const [round, homeNet] of ['[10.1.0.0/16]', '[10.2.0.0/16]'].entries()) {
          const changed = await call('PUT', `/deviceconfigurationprofiles/${profileId}`, console_, {
            variables: variables(homeNet),
          });
          expect(changed.status).toBe(200);
          const pushed = await until('the pushed config version', () =>
            stream.events.find(
              (event) => event.config_version === first.config_version + round + 1,
            ),
          );
          expect(pushed.policy_version).toBe(first.policy_version);
        }
        stream.close();
        // An apply report after the faults lands, and is what the device shows.
        const applied = await call('POST', '/agent/applied', agent, {
          config_version: 4242,
          policy_version: 4343,
          ok: true,
        });
        expect(applied.status).toBe(200);
        const shown = await call('GET', `/devices/${deviceId}`, console_);
        expect(shown.body).toMatchObject({
          config_version_local: 4242,
          policy_version_local: 4343,
        });
        expect(server.exit()).toBeUndefined();
        const stopped = await server.stop();
        expect(stopped.code === 0 || stopped.signal === 'SIGTERM', 'a clean stop').toBe(true);
      } finally {
        if (server && !server.exit()) await server.stop();
        await admin.query(`ALTER DATABASE ${dbName} WITH ALLOW_CONNECTIONS true`);
        await admin.end();
        await scratch.drop();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );
});
