// Scale-out figures (issue 16, item 6): two server replicas against one PostgreSQL database.
// Time from a change made through replica A (PUT /policies/{id}) to its being applied by
// simulated agents (the agent's fleet mode, push channel on, heartbeats 10 min apart so only
// push can carry it), with the fleet split over A and B, beside the same fleet all on A (the
// single-replica reference) in the same run. The two layouts alternate ROUNDS times each; each
// round makes CHANGES changes. Servers are pinned one per core (taskset), A on 0 and B on 1.
// Printed per layout: per-device latency median / p95 / max (devices × changes), and "all
// devices applied" per change as min / median / max; then the target (p95 under 1 s) beside
// the measured figure and the ratio split / single. Asserts nothing.
//
// BENCH_REPLICA_FLEET (devices, 200), BENCH_REPLICA_CHANGES (per round, 10),
// BENCH_REPLICA_ROUNDS (per layout, 2), BENCH_POSTGRES_URL (the server's maintenance database).

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  agentProcess,
  ConsoleClient,
  freePort,
  TestProcess,
  waitFor,
} from '../apps/agent/src/testing/processes.js';
import { repoRoot } from '../apps/agent/src/testing/corpus.js';
import { scratchDbName } from '../testing/scratch-db.mjs';

const FLEET = Number(process.env.BENCH_REPLICA_FLEET ?? 200);
const CHANGES = Number(process.env.BENCH_REPLICA_CHANGES ?? 10);
const ROUNDS = Number(process.env.BENCH_REPLICA_ROUNDS ?? 2);
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TARGET_P95_MS = 1000;
const PASSWORD = 'bench-replica-password';
const RULES = Array.from(
  { length: 200 },
  (_, i) =>
    `alert tcp $EXTERNAL_NET any -> $HOME_NET ${1000 + i} (msg:"BENCH rule ${i}"; sid:${8_100_000 + i}; rev:1;)`,
).join('\n');

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const ms = (n: number) => `${n.toFixed(0)} ms`.padStart(8);

interface Replica {
  url: string;
  process: TestProcess;
}

/** The server from source, as `npm start` runs it, pinned to one core. */
async function startReplica(options: {
  name: string;
  cpu: number;
  databaseUrl: string;
  dir: string;
}): Promise<Replica> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const process_ = new TestProcess(
    [
      'taskset',
      '-c',
      String(options.cpu),
      process.execPath,
      '--max-semi-space-size=64',
      '--conditions=palisade-source',
      '--import',
      'tsx',
      path.join(repoRoot, 'apps/server/src/main.ts'),
    ],
    [],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(options.dir, options.name),
      DATABASE_URL: options.databaseUrl,
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      SECRET_KEY: 'bench-replicas-secret-key-0123456789abcdef',
    },
    path.join(options.dir, `${options.name}.log`),
  );
  process_.start();
  await waitFor(
    `replica ${options.name} to answer /health`,
    async () => {
      if (!process_.running) throw new Error(`replica ${options.name} exited`);
      return (await fetch(`${url}/api/v1/health`)).ok;
    },
    120_000,
    200,
  );
  return { url, process: process_ };
}

/** Simulated agents for devices first … first+count-1, on one replica. */
function startFleet(options: {
  url: string;
  first: number;
  count: number;
  dir: string;
  name: string;
}): TestProcess {
  const fleet = agentProcess(
    [
      'fleet',
      '--server',
      options.url,
      '--device-id',
      String(options.first),
      '--count',
      String(options.count),
      '--password-file',
      path.join(options.dir, 'password'),
      '--output-dir',
      path.join(options.dir, `${options.name}-out`),
      '--state-dir',
      path.join(options.dir, `${options.name}-state`),
      '--heartbeat',
      '600',
      '--start-spread',
      '3',
      '--log-level',
      'error',
    ],
    path.join(options.dir, `${options.name}.log`),
  );
  fleet.start();
  return fleet;
}

interface DeviceRow {
  id: number;
  policy_version_local: number | null;
  policy_version_remote: number;
}

interface Round {
  /** Change → one device applied it, for every device and change. */
  perDevice: number[];
  /** Change → the last device applied it, per change. */
  all: number[];
}

/** Waits until the fleet applied what it has now, so the next change starts from rest. */
async function settled(admin: ConsoleClient, count: number, timeoutMs = 300_000): Promise<void> {
  await waitFor(
    'the fleet to apply the current policy',
    async () => {
      const page = await admin.ok<{ data: DeviceRow[] }>(
        'GET',
        `/devices/?limit=${count}&offset=0`,
      );
      return (
        page.data.length === count &&
        page.data.every((d) => d.policy_version_local === d.policy_version_remote)
      );
    },
    timeoutMs,
    250,
  );
}

async function measure(admin: ConsoleClient, policyId: number, changes: number): Promise<Round> {
  const round: Round = { perDevice: [], all: [] };
  for (let i = 0; i < changes; i++) {
    const ip = `10.${i & 255}.${(Date.now() >> 4) & 255}.${1 + (Date.now() % 250)}`;
    const t0 = performance.now();
    await admin.ok('PUT', `/policies/${policyId}`, {
      thresholds: [{ kind: 'suppress', gid: 1, sid: 8_100_000, track: 'by_src', ip }],
    });
    const pending = new Set<number>();
    let remote = -1;
    await waitFor(
      'the fleet to apply the change',
      async () => {
        const page = await admin.ok<{ data: DeviceRow[] }>(
          'GET',
          `/devices/?limit=${FLEET}&offset=0`,
        );
        const now = performance.now() - t0;
        if (remote < 0) {
          remote = page.data[0]?.policy_version_remote ?? -1;
          for (const d of page.data) pending.add(d.id);
        }
        for (const d of page.data) {
          if (pending.has(d.id) && d.policy_version_local === remote) {
            pending.delete(d.id);
            round.perDevice.push(now);
          }
        }
        return pending.size === 0;
      },
      120_000,
      20,
    );
    round.all.push(performance.now() - t0);
  }
  return round;
}

function describe(name: string, rounds: Round[]) {
  const perDevice = rounds.flatMap((r) => r.perDevice).sort((a, b) => a - b);
  const all = rounds.flatMap((r) => r.all).sort((a, b) => a - b);
  console.log(
    `${name.padEnd(34)} per device: median ${ms(quantile(perDevice, 0.5))}  p95 ${ms(quantile(perDevice, 0.95))}  max ${ms(perDevice.at(-1) ?? NaN)}` +
      `   all applied: min ${ms(all[0] ?? NaN)}  median ${ms(quantile(all, 0.5))}  max ${ms(all.at(-1) ?? NaN)}  (${all.length} changes)`,
  );
  return { p50: quantile(perDevice, 0.5), p95: quantile(perDevice, 0.95), all: quantile(all, 0.5) };
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-replicas-bench-'));
const dbName = scratchDbName('bench_replicas');
const maintenance = new pg.Client({ connectionString: ADMIN_URL });
try {
  await maintenance.connect();
  await maintenance.query(`CREATE DATABASE ${dbName}`);
} catch (error) {
  console.log(
    `not run: no PostgreSQL server (${error instanceof Error ? error.message : String(error)})`,
  );
  await maintenance.end().catch(() => undefined);
  process.exit(0);
}
const url = new URL(ADMIN_URL);
url.pathname = `/${dbName}`;
const running: TestProcess[] = [];
try {
  // One after the other: the first start creates the schema and the Administrator.
  const a = await startReplica({ name: 'a', cpu: 0, databaseUrl: url.toString(), dir });
  running.push(a.process);
  const b = await startReplica({ name: 'b', cpu: 1, databaseUrl: url.toString(), dir });
  running.push(b.process);
  const admin = new ConsoleClient(a.url);
  await admin.signIn();
  await admin.importRules('bench.rules', RULES);
  const groups = await admin.ok<{ data: { id: number }[] }>('GET', '/groups/');
  const policy = await admin.ok<{ id: number }>('POST', '/policies/', {
    name: 'Bench',
    group_ids: groups.data.map((g) => g.id),
  });
  const ids: number[] = [];
  for (let i = 0; i < FLEET; i++) {
    const device = await admin.ok<{ id: number }>('POST', '/devices/', {
      name: `bench-${i + 1}`,
      password: PASSWORD,
      policy_id: policy.id,
    });
    ids.push(device.id);
  }
  await writeFile(path.join(dir, 'password'), PASSWORD);
  const first = ids[0] ?? 1;
  const half = Math.floor(FLEET / 2);
  console.log(
    `${FLEET} simulated agents, ${ROUNDS} rounds × ${CHANGES} changes per layout, ` +
      `change made through replica A, ${os.cpus().length} cores (A on core 0, B on core 1)`,
  );

  const layouts = {
    single: [] as Round[],
    split: [] as Round[],
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const layout of ['single', 'split'] as const) {
      const fleets =
        layout === 'single'
          ? [startFleet({ url: a.url, first, count: FLEET, dir, name: `fleet-${round}-all` })]
          : [
              startFleet({ url: a.url, first, count: half, dir, name: `fleet-${round}-a` }),
              startFleet({
                url: b.url,
                first: first + half,
                count: FLEET - half,
                dir,
                name: `fleet-${round}-b`,
              }),
            ];
      running.push(...fleets);
      // The agents' first pulls, then one change to open every push stream, unmeasured.
      await settled(admin, FLEET);
      await measure(admin, policy.id, 1);
      layouts[layout].push(await measure(admin, policy.id, CHANGES));
      for (const fleet of fleets) {
        await fleet.stop();
        running.splice(running.indexOf(fleet), 1);
      }
    }
  }
  const single = describe('single replica (all agents on A)', layouts.single);
  const split = describe(`split (${half} on A, ${FLEET - half} on B)`, layouts.split);
  console.log(
    `target: p95 change → applied under ${TARGET_P95_MS} ms with the fleet split over two replicas; ` +
      `measured ${split.p95.toFixed(0)} ms (${(split.p95 / TARGET_P95_MS).toFixed(2)}× the target)`,
  );
  console.log(
    `split / single: median ${(split.p50 / single.p50).toFixed(2)}×, p95 ${(split.p95 / single.p95).toFixed(2)}×, ` +
      `all applied ${(split.all / single.all).toFixed(2)}×`,
  );
} finally {
  for (const p of running.reverse()) await p.stop();
  await maintenance.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
  await maintenance.end();
  await rm(dir, { recursive: true, force: true });
}
