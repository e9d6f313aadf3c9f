// Agent protocol figures, against the real server process (from source, scratch PGlite data):
//  1. heartbeats per second the server sustains from a simulated fleet (every request a real
//     device's token and a realistic body), with p50/p99 latency, beside GET /api/v1/health (a
//     route that touches no database) under the same load: the ratio is the figure of merit
//     (issue 5 target: at least half the ceiling and ≥ 6,667/s = 200,000 sensors / 30 s), and
//     the server's own CPU per request of each route (steadier than the rates here); on
//     embedded PGlite, then again on a scratch database of the PostgreSQL server at
//     BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres) when it answers;
//  2. time from a change in the console (PUT /policies/{id}) to the agent reporting it applied
//     (the device's local policy version equal to the new one), median and p95 over many changes
//     (target p95 under 1 s), alone and with a connected fleet listening on the push channel.
//  3. a change that reaches a whole fleet (bench/fleet-change.ts): N simulated devices in one
//     fleet process on PostgreSQL (BENCH_FLEET_SIZES, default 1000,5000), per-device change →
//     applied median/p95 and all-applied time beside a one-device change alternated with it,
//     and the fleet process's RSS per device.
// BENCH_DB=postgres (or pglite) runs only that database's heartbeat figures; BENCH_DB=fleet
// only the fleet figure. Prints figures; asserts nothing
// about time.

import http from 'node:http';
import pg from 'pg';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { SimulatedMetrics } from '../apps/agent/src/simulate/metrics.js';
import { fleetFigures } from './fleet-change.js';
import { cpuSeconds } from './lib/process-usage.js';
import {
  agentProcess,
  ConsoleClient,
  freePort,
  ServerProcess,
  waitFor,
} from '../apps/agent/src/testing/processes.js';
import { scratchDbName } from '../testing/scratch-db.mjs';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 40);
const FLEET = Number(process.env.BENCH_FLEET ?? 200);
const FLEET_CHANGES = Number(process.env.BENCH_FLEET_CHANGES ?? 10);
const PASSWORD = 'bench-device-password';
const RULES = Array.from(
  { length: 200 },
  (_, i) =>
    `alert tcp $EXTERNAL_NET any -> $HOME_NET ${1000 + i} (msg:"BENCH rule ${i}"; classtype:attempted-recon; sid:${8_000_000 + i}; rev:1;)`,
).join('\n');

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

interface Load {
  rate: number;
  p50: number;
  p99: number;
  errors: number;
  /** The server's CPU (user + system) per request, µs. */
  serverCpuUs: number;
}

/** Closed loop: CONCURRENCY requests in flight for SECONDS, after a one-second warm-up. */
async function load(
  url: URL,
  make: (i: number) => { method: string; headers: Record<string, string>; body?: Buffer },
  serverPid: number | undefined,
): Promise<Load> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const send = (i: number) =>
    new Promise<number>((resolve, reject) => {
      const { method, headers, body } = make(i);
      const request = http.request(url, { method, headers, agent }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      });
      request.on('error', reject);
      request.end(body);
    });
  const run = async (seconds: number) => {
    const latencies: number[] = [];
    let errors = 0;
    let counter = 0;
    const deadline = performance.now() + seconds * 1000;
    const worker = async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const status = await send(counter++).catch(() => 0);
        if (status !== 200) errors += 1;
        latencies.push(performance.now() - t0);
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return { latencies, errors, seconds: (performance.now() - started) / 1000 };
  };
  await run(1);
  // The server's own CPU per request as well: the rates move with whatever else this machine
  // runs (the load client shares it), the server's CPU per request much less.
  const cpuBefore = cpuSeconds(serverPid);
  const { latencies, errors, seconds } = await run(SECONDS);
  const serverCpu = cpuSeconds(serverPid) - cpuBefore;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    rate: latencies.length / seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    errors,
    serverCpuUs: (serverCpu * 1e6) / latencies.length,
  };
}

function describeLoad(name: string, result: Load): string {
  return (
    `${name.padEnd(50)} ${fmt(result.rate).padStart(7)} req/s   p50 ${result.p50.toFixed(1)} ms` +
    `   p99 ${result.p99.toFixed(1)} ms${result.errors ? `   ${result.errors} errors` : ''}`
  );
}

interface Latencies {
  /** Change → the measured device applied it. */
  one: number[];
  /** Change → every device of the fleet applied it (with a fleet). */
  all: number[];
}

/**
 * Changes the policy `count` times; after each, waits for the device (and, given `fleetSize`,
 * for every device) to have applied it before the next, so changes do not queue up.
 */
async function changeLatency(
  admin: ConsoleClient,
  policyId: number,
  deviceId: number,
  count: number,
  fleetSize = 0,
): Promise<Latencies> {
  const result: Latencies = { one: [], all: [] };
  for (let i = 0; i < count; i++) {
    const ip = `10.${(i >> 8) & 255}.${i & 255}.${1 + (Date.now() % 250)}`;
    const t0 = performance.now();
    await admin.ok('PUT', `/policies/${policyId}`, {
      thresholds: [{ kind: 'suppress', gid: 1, sid: 8_000_000, track: 'by_src', ip }],
    });
    const remote = (
      await admin.ok<{ policy_version_remote: number }>('GET', `/devices/${deviceId}`)
    ).policy_version_remote;
    await waitFor(
      'the change applied',
      async () => {
        const d = await admin.ok<{ policy_version_local: number | null }>(
          'GET',
          `/devices/${deviceId}`,
        );
        return d.policy_version_local === remote;
      },
      60_000,
      5,
    );
    result.one.push(performance.now() - t0);
    if (fleetSize > 0) {
      await waitFor(
        'the fleet applied the change',
        async () => {
          const page = await admin.ok<{ data: { policy_version_local: number | null }[] }>(
            'GET',
            `/devices/?limit=${fleetSize + 1}&offset=0`,
          );
          return page.data.every((d) => d.policy_version_local === remote);
        },
        120_000,
        50,
      );
      result.all.push(performance.now() - t0);
    }
  }
  result.one.sort((a, b) => a - b);
  result.all.sort((a, b) => a - b);
  return result;
}

function describeLatency(name: string, times: number[]): string {
  return (
    `${name.padEnd(44)} median ${quantile(times, 0.5).toFixed(0)} ms   ` +
    `p95 ${quantile(times, 0.95).toFixed(0)} ms   max ${(times.at(-1) ?? NaN).toFixed(0)} ms` +
    `   (${times.length} changes)`
  );
}

/** Signs the devices in, then loads /health and /agent/heartbeat and prints the figures. */
async function heartbeatFigures(label: string, server: ServerProcess, ids: number[]) {
  const tokens: string[] = [];
  for (const id of ids) {
    const response = await fetch(`${server.url}/api/v1/agent/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ device_id: id, password: PASSWORD, protocol: 1 }),
    });
    tokens.push(((await response.json()) as { access_token: string }).access_token);
  }
  const samples = await Promise.all(ids.map((id) => new SimulatedMetrics(id).sample()));
  const health = await load(
    new URL('/api/v1/health', server.url),
    () => ({
      method: 'GET',
      headers: {},
    }),
    server.pid,
  );
  // Each device's beat is built once, with its length, as the agent sends it (the agent's
  // client sets content-length; without it Node sends the body chunked). Per request the load
  // client then sends a prepared request and reads the answer, as it does for /health.
  const beats = ids.map((_, n) => {
    const body = Buffer.from(
      JSON.stringify({
        state: 'running',
        metrics: samples[n],
        local: { config_version: 1, policy_version: 1 },
        agent_version: '0.1.0',
        last_error: null,
      }),
    );
    return {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens[n] ?? ''}`,
        'content-type': 'application/json',
        'content-length': String(body.length),
      },
      body,
    };
  });
  const heartbeat = await load(
    new URL('/api/v1/agent/heartbeat', server.url),
    (i) => beats[i % beats.length]!,
    server.pid,
  );
  const healthUs = health.serverCpuUs;
  const heartbeatUs = heartbeat.serverCpuUs;
  console.log(describeLoad(`[${label}] GET /api/v1/health (no database)`, health));
  console.log(describeLoad(`[${label}] POST /api/v1/agent/heartbeat`, heartbeat));
  console.log(
    `[${label}] ratio heartbeat / health: ${(heartbeat.rate / health.rate).toFixed(2)} ` +
      `(target ≥ 0.5); sensors at a 30 s heartbeat: ${fmt(heartbeat.rate * 30)} (target 200,000)`,
  );
  console.log(
    `[${label}] server CPU per request: /health ${healthUs.toFixed(0)} µs, heartbeat ` +
      `${heartbeatUs.toFixed(0)} µs (ratio ${(healthUs / heartbeatUs).toFixed(2)})`,
  );
}

/** The same heartbeat figures on a scratch database of the PostgreSQL server, when there is one. */
async function postgresFigures(dir: string): Promise<void> {
  const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = scratchDbName('bench');
  const client = new pg.Client({ connectionString: adminUrl });
  try {
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
  } catch (error) {
    console.log(`[PostgreSQL] not run: ${error instanceof Error ? error.message : String(error)}`);
    await client.end().catch(() => undefined);
    return;
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const server = new ServerProcess(
    await freePort(),
    path.join(dir, 'pg-data'),
    path.join(dir, 'pg-server.log'),
    { DATABASE_URL: url.toString() },
  );
  try {
    await server.start();
    const admin = new ConsoleClient(server.url);
    await admin.signIn();
    const ids: number[] = [];
    for (let i = 0; i < DEVICES; i++) {
      const device = await admin.ok<{ id: number }>('POST', '/devices/', {
        name: `bench-${i + 1}`,
        password: PASSWORD,
      });
      ids.push(device.id);
    }
    await heartbeatFigures('PostgreSQL', server, ids);
  } finally {
    await server.stop();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  }
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-agent-bench-'));
if (process.env.BENCH_DB === 'fleet') {
  await fleetFigures(dir);
  if (process.env.BENCH_KEEP_LOGS) console.log(`[fleet] logs kept in ${dir}`);
  else await rm(dir, { recursive: true, force: true });
  process.exit(0);
}
if (process.env.BENCH_DB === 'postgres') {
  // Only the PostgreSQL heartbeat figures (while working on that path).
  await postgresFigures(dir);
  await rm(dir, { recursive: true, force: true });
  process.exit(0);
}
const server = new ServerProcess(
  await freePort(),
  path.join(dir, 'data'),
  path.join(dir, 'server.log'),
  {},
  // BENCH_CPU_PROF=<folder>: the embedded-database server writes its CPU profiles there.
  process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${path.join(process.env.BENCH_CPU_PROF, 'pglite-server')}`]
    : [],
);
const processes: { stop: () => Promise<void> }[] = [];
try {
  await server.start();
  const admin = new ConsoleClient(server.url);
  await admin.signIn();
  await admin.importRules('bench.rules', RULES);
  const groups = await admin.ok<{ data: { id: number }[] }>('GET', '/groups/');
  const policy = await admin.ok<{ id: number }>('POST', '/policies/', {
    name: 'Bench',
    group_ids: groups.data.map((g) => g.id),
  });
  const total = Math.max(DEVICES, FLEET + 1);
  const ids: number[] = [];
  for (let i = 0; i < total; i++) {
    const device = await admin.ok<{ id: number }>('POST', '/devices/', {
      name: `bench-${i + 1}`,
      password: PASSWORD,
      policy_id: policy.id,
    });
    ids.push(device.id);
  }
  console.log(
    `${DEVICES} devices signed in, ${CONCURRENCY} requests in flight, ${SECONDS} s per route, ` +
      `${os.cpus().length} cores`,
  );
  await heartbeatFigures('PGlite', server, ids.slice(0, DEVICES));
  if (process.env.BENCH_DB === 'pglite') {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
    process.exit(0);
  }

  // One real agent process, push channel on, a reload command that does nothing.
  const deviceId = ids[DEVICES] ?? ids[0] ?? 1;
  await writeFile(path.join(dir, 'password'), PASSWORD);
  const agent = agentProcess(
    [
      'run',
      '--server',
      server.url,
      '--device-id',
      String(deviceId),
      '--password-file',
      path.join(dir, 'password'),
      '--output-dir',
      path.join(dir, 'out'),
      '--state-dir',
      path.join(dir, 'state'),
      '--reload-cmd',
      'true',
      '--log-level',
      'warn',
    ],
    path.join(dir, 'agent.log'),
  );
  agent.start();
  processes.push(agent);
  await waitFor(
    'the agent online',
    async () => (await admin.ok<{ online: boolean }>('GET', `/devices/${deviceId}`)).online,
    60_000,
  );
  await changeLatency(admin, policy.id, deviceId, 3); // warm-up
  console.log(
    describeLatency(
      'change → applied, one agent',
      (await changeLatency(admin, policy.id, deviceId, CHANGES)).one,
    ),
  );

  if (FLEET > 0) {
    const others = ids.filter((id) => id !== deviceId).slice(0, FLEET);
    const first = others[0] ?? 1;
    const fleet = agentProcess(
      [
        'fleet',
        '--server',
        server.url,
        '--device-id',
        String(first),
        '--count',
        String(others.length),
        '--password-file',
        path.join(dir, 'password'),
        '--output-dir',
        path.join(dir, 'fleet-out'),
        '--state-dir',
        path.join(dir, 'fleet-state'),
        '--start-spread',
        '5',
        '--log-level',
        'error',
      ],
      path.join(dir, 'fleet.log'),
    );
    fleet.start();
    processes.push(fleet);
    await waitFor(
      'the fleet online',
      async () => {
        const page = await admin.ok<{ data: { online: boolean }[] }>(
          'GET',
          `/devices/?limit=${total}&offset=0`,
        );
        return page.data.filter((d) => d.online).length >= others.length + 1;
      },
      300_000,
      1000,
    );
    // Every fleet device runs the same policy: each change is pushed to all of them. The first
    // changes after the fleet started measure its push streams still opening: warm up first.
    await changeLatency(admin, policy.id, deviceId, 2, others.length);
    const withFleet = await changeLatency(admin, policy.id, deviceId, FLEET_CHANGES, others.length);
    console.log(
      describeLatency(`change → applied, beside ${others.length} fleet devices`, withFleet.one),
    );
    console.log(
      describeLatency(`change → applied by all ${others.length + 1} devices`, withFleet.all),
    );
  }
  // Quiet machine for the PostgreSQL run: everything above stops first.
  for (const p of processes.splice(0).reverse()) await p.stop();
  await server.stop();
  await postgresFigures(dir);
  await fleetFigures(dir);
} finally {
  for (const p of processes.reverse()) await p.stop();
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}
