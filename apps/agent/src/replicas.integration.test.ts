// Two server replicas (real processes, from source) against one PostgreSQL database serve one
// fleet of real agents, half connected to each: what is done through one replica reaches the
// agents and consoles of the other by push, scheduled jobs run once across both, and one
// replica stopping leaves the other's agents alone. PostgreSQL only: PGlite is one process's
// database, so it cannot have two replicas.

import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConsoleClient,
  deviceAgent,
  freePort,
  ServerProcess,
  waitFor,
  type TestProcess,
} from './testing/processes.js';
import { scratchDbName } from '../../../testing/scratch-db.mjs';

const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PASSWORD = 'replica-device-secret-1';
/** Heartbeats this far apart cannot be what carries a change: only the push channel can. */
const HEARTBEAT_SECONDS = '600';
/**
 * How long a pushed change may take to be applied on this loaded machine (it takes well under
 * a second; see bench/replicas.bench.ts); a heartbeat would bring it after HEARTBEAT_SECONDS.
 */
const PUSH_BOUND_MS = 15_000;
const AGENTS = 4;
const RULES = Array.from(
  { length: 5 },
  (_, i) =>
    `alert tcp any any -> any ${80 + i} (msg:"REPLICA rule ${i}"; sid:${7_100_000 + i}; rev:1;)`,
).join('\n');

interface DeviceView {
  id: number;
  config_version_local: number | null;
  config_version_remote: number;
  policy_version_local: number | null;
  policy_version_remote: number;
}

/** A server-sent-events stream as a client reads it: the events so far, and whether it ended. */
async function eventStream(url: string, authorization: string) {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { authorization }, signal: controller.signal });
  if (!response.ok || !response.body) throw new Error(`no event stream: HTTP ${response.status}`);
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const decoder = new TextDecoder();
  const state = { events: [] as string[], ended: false };
  void (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = /^event: (.*)$/m.exec(buffer.slice(0, end))?.[1];
        if (event) state.events.push(event);
        buffer = buffer.slice(end + 2);
      }
    }
  })()
    .catch(() => undefined)
    .finally(() => {
      state.ended = true;
    });
  return { state, close: () => controller.abort() };
}

async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const hasPostgres = await postgresAnswers();
if (!hasPostgres) console.log(`replica tests skipped: no PostgreSQL server at ${POSTGRES_URL}`);

describe.skipIf(!hasPostgres)(
  'two server replicas on one PostgreSQL (PostgreSQL only: PGlite cannot be shared by two processes)',
  { timeout: 180_000 },
  () => {
    const dbName = scratchDbName('replicas');
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    let db: pg.Client;
    let dir: string;
    let replicaA: ServerProcess;
    let replicaB: ServerProcess;
    let consoleA: ConsoleClient;
    let consoleB: ConsoleClient;
    let policyId: number;
    /** Devices with an agent; agents[i] runs on replica A when i is even, else B. */
    const ids: number[] = [];
    const agents: TestProcess[] = [];
    /** A device without an agent: the test speaks for it. */
    let loneId: number;

    const reloads = async (i: number) =>
      (await readFile(path.join(dir, `agent-${i}`, 'reloads'), 'utf8').catch(() => ''))
        .split('\n')
        .filter(Boolean).length;

    /** Waits until every named device applied what the server holds for it. */
    const applied = (deviceIds: number[], what: string) =>
      waitFor(
        what,
        async () => {
          for (const id of deviceIds) {
            const d = await consoleA.ok<DeviceView>('GET', `/devices/${id}`);
            if (
              d.policy_version_local !== d.policy_version_remote ||
              d.config_version_local !== d.config_version_remote
            )
              return false;
          }
          return true;
        },
        PUSH_BOUND_MS,
        50,
      );

    const changePolicy = async (through: ConsoleClient, ip: string) => {
      await through.ok('PUT', `/policies/${policyId}`, {
        thresholds: [{ kind: 'suppress', gid: 1, sid: 7_100_000, track: 'by_src', ip }],
      });
      return (await consoleA.ok<DeviceView>('GET', `/devices/${ids[0]}`)).policy_version_remote;
    };

    /** The `retention applied` lines both replicas logged, with what each deleted. */
    const retentionRuns = async () => {
      const lines = [
        ...(await readFile(path.join(dir, 'a.log'), 'utf8')).split('\n'),
        ...(await readFile(path.join(dir, 'b.log'), 'utf8')).split('\n'),
      ];
      return lines
        .filter((line) => line.includes('"retention applied"'))
        .map((line) => (JSON.parse(line) as { deleted: { device_alerts: number } }).deleted);
    };

    beforeAll(async () => {
      await admin.connect();
      await admin.query(`CREATE DATABASE ${dbName}`);
      const url = new URL(POSTGRES_URL);
      url.pathname = `/${dbName}`;
      db = new pg.Client({ connectionString: url.toString() });
      await db.connect();
      dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-replicas-'));
      const env = {
        DATABASE_URL: url.toString(),
        // Replicas look for due jobs every second, so both race for each one.
        JOB_CHECK_SECONDS: '1',
        LOG_LEVEL: 'info',
      };
      // One after the other: the first start creates the schema and the first Administrator.
      replicaA = new ServerProcess(
        await freePort(),
        path.join(dir, 'a'),
        path.join(dir, 'a.log'),
        env,
      );
      await replicaA.start();
      replicaB = new ServerProcess(
        await freePort(),
        path.join(dir, 'b'),
        path.join(dir, 'b.log'),
        env,
      );
      await replicaB.start();
      consoleA = new ConsoleClient(replicaA.url);
      consoleB = new ConsoleClient(replicaB.url);
      await consoleA.signIn();
      await consoleB.signIn();

      await consoleA.importRules('replica.rules', RULES);
      const groups = await consoleA.ok<{ data: { id: number }[] }>('GET', '/groups/');
      policyId = (
        await consoleA.ok<{ id: number }>('POST', '/policies/', {
          name: 'Replicated',
          group_ids: groups.data.map((g) => g.id),
        })
      ).id;
      for (let i = 0; i < AGENTS; i++) {
        const device = await consoleA.ok<{ id: number }>('POST', '/devices/', {
          name: `replica-sensor-${i}`,
          password: PASSWORD,
          policy_id: policyId,
        });
        ids.push(device.id);
        const home = path.join(dir, `agent-${i}`);
        await mkdir(home, { recursive: true });
        await writeFile(path.join(home, 'password'), PASSWORD);
        const agent = deviceAgent((i % 2 === 0 ? replicaA : replicaB).url, device.id, home, [
          '--heartbeat',
          HEARTBEAT_SECONDS,
          '--reload-cmd',
          `echo applied >> ${path.join(home, 'reloads')}`,
          '--log-level',
          'warn',
        ]);
        agent.start();
        agents.push(agent);
      }
      loneId = (
        await consoleA.ok<{ id: number }>('POST', '/devices/', {
          name: 'replica-lone',
          password: PASSWORD,
        })
      ).id;
      // Started agents pull at once; give them the time a start takes on a loaded machine.
      await waitFor(
        'every agent to apply its first bundle',
        async () => {
          for (const id of ids) {
            const d = await consoleA.ok<DeviceView>('GET', `/devices/${id}`);
            if (d.policy_version_local !== d.policy_version_remote) return false;
          }
          return true;
        },
        90_000,
        200,
      );
    }, 240_000);

    afterAll(async () => {
      await Promise.all(agents.map((agent) => agent.stop()));
      await replicaA?.stop();
      await replicaB?.stop();
      await db?.end().catch(() => undefined);
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
      await admin.end().catch(() => undefined);
      if (dir) await rm(dir, { recursive: true, force: true });
    }, 60_000);

    it('pushes a change made through replica A to the agents on both replicas (heartbeats 10 min apart)', async () => {
      const remote = await changePolicy(consoleA, '10.1.0.1');
      await applied(ids, 'every agent, on A and on B, to apply the change made through A');
      const onB = await consoleB.ok<DeviceView>('GET', `/devices/${ids[1]}`);
      expect(onB.policy_version_local).toBe(remote);
    });

    it("tells replica B's consoles of a change made through replica A", async () => {
      const stream = await eventStream(`${replicaB.url}/api/v1/events`, consoleB.authorization);
      try {
        // Quiet first, so that what comes next is the change's notice and nothing else's.
        let seen = -1;
        await waitFor(
          'the console stream on B to be quiet for a second',
          async () => {
            const count = stream.state.events.length;
            const quiet = count === seen;
            seen = count;
            return quiet;
          },
          30_000,
          1000,
        );
        const before = stream.state.events.length;
        await consoleA.ok('PUT', `/devices/${loneId}`, { description: 'renamed through A' });
        await waitFor(
          'a devices event on B',
          async () => stream.state.events.slice(before).includes('devices'),
          PUSH_BOUND_MS,
          20,
        );
      } finally {
        stream.close();
      }
    });

    it('makes the agent on replica A pull and apply again when a flush is asked through replica B', async () => {
      const before = await reloads(0);
      await consoleB.ok('GET', `/deviceupdate/${ids[0]}`);
      await waitFor(
        'the agent on A to apply its bundle again',
        async () => (await reloads(0)) > before,
        PUSH_BOUND_MS,
        20,
      );
    });

    it("revokes on replica A a device's token when its password is changed through replica B: push stream ended, heartbeats 401", async () => {
      const login = await fetch(`${replicaA.url}/api/v1/agent/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ device_id: loneId, password: PASSWORD, protocol: 1 }),
      });
      const token = `Bearer ${((await login.json()) as { access_token: string }).access_token}`;
      const beat = () =>
        fetch(`${replicaA.url}/api/v1/agent/heartbeat`, {
          method: 'POST',
          headers: { authorization: token, 'content-type': 'application/json' },
          body: JSON.stringify({
            state: 'running',
            local: { config_version: null, policy_version: null },
            agent_version: '0.1.0',
          }),
        });
      // Two beats: the second is routine, and A keeps the device's row to answer the next ones.
      expect((await beat()).status).toBe(200);
      expect((await beat()).status).toBe(200);
      const stream = await eventStream(`${replicaA.url}/api/v1/agent/events`, token);
      await waitFor('the first versions event', async () => stream.state.events.length > 0);

      await consoleB.ok('PUT', `/devices/${loneId}`, { password: 'replica-new-secret-2' });
      await waitFor('the stream on A to end', async () => stream.state.ended, PUSH_BOUND_MS, 20);
      expect((await beat()).status).toBe(401);
    });

    it('runs the retention once when it falls due on both replicas at once, and deletes once', async () => {
      const login = await fetch(`${replicaB.url}/api/v1/agent/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ device_id: ids[1], password: PASSWORD, protocol: 1 }),
      });
      const token = `Bearer ${((await login.json()) as { access_token: string }).access_token}`;
      const old = new Date(Date.now() - 400 * 86_400_000).toISOString();
      const jobRuns = async () =>
        Number(
          (
            await db.query<{ runs: string }>(
              `SELECT runs FROM scheduled_jobs WHERE name = 'retention'`,
            )
          ).rows[0]?.runs ?? 0,
        );
      // The first run happens a second after each replica starts (nothing to delete then).
      await waitFor('the first retention run', async () => (await jobRuns()) >= 1);
      const ROUNDS = 3;
      const PER_ROUND = 7;
      for (let round = 0; round < ROUNDS; round++) {
        const stored = await fetch(`${replicaB.url}/api/v1/agent/alerts`, {
          method: 'POST',
          headers: { authorization: token, 'content-type': 'application/json' },
          body: JSON.stringify({
            seq: 1_000 + round,
            events: Array.from({ length: PER_ROUND }, (_, i) => ({
              timestamp: old,
              event_type: 'alert',
              src_ip: '192.0.2.1',
              dest_ip: '198.51.100.1',
              proto: 'TCP',
              alert: { signature_id: 7_100_000 + i, signature: `old ${i}`, severity: 2 },
            })),
          }),
        });
        expect(stored.status).toBe(200);
        const runs = await jobRuns();
        // An hour passed, as far as the job is concerned: due now, on both replicas.
        await db.query(`UPDATE scheduled_jobs SET due_at = now() WHERE name = 'retention'`);
        await waitFor('the retention to run', async () => {
          const [row] = (
            await db.query<{ runs: string; finished: boolean }>(
              `SELECT runs, finished_at IS NOT NULL AS finished FROM scheduled_jobs WHERE name = 'retention'`,
            )
          ).rows;
          return row !== undefined && Number(row.runs) > runs && row.finished;
        });
        // Both replicas look every second: after three, a second claim would have been made.
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        expect(await jobRuns()).toBe(runs + 1);
      }
      const logged = await retentionRuns();
      expect(logged.length).toBe(await jobRuns());
      expect(logged.reduce((sum, deleted) => sum + deleted.device_alerts, 0)).toBe(
        ROUNDS * PER_ROUND,
      );
      const alerts = await consoleA.ok<{ recordsTotal: number }>('GET', '/alerts/?limit=1');
      expect(alerts.recordsTotal).toBe(0);
    });

    it("leaves the agents on replica A undisturbed when replica B stops: they still hear A's changes", async () => {
      await replicaB.stop();
      const onA = ids.filter((_, i) => i % 2 === 0);
      await changePolicy(consoleA, '10.1.0.2');
      await applied(onA, 'the agents on A to apply a change made after B stopped');
      expect(agents.filter((_, i) => i % 2 === 0).every((agent) => agent.running)).toBe(true);
    });
  },
);
