// Alert ingest at the limit: eve.json alerts POSTed to /api/v1/agent/alerts in the agent's
// batches (HTTP, JSON parsing, validation and the exactly-once claim included) to the server as
// `npm start` runs it (apps/server/dist/main.js in its own process), on a scratch PostgreSQL
// database and on PGlite with its data folder on disk, beside the reference: psql itself running
// `\copy device_alerts … FROM 'file'` with the same rows into the same table (same partitions
// and indexes) of a PostgreSQL database; the server also keeps the hourly rollup and the
// signature catalogue with each batch, which psql does not. The servers and psql run pinned to
// one CPU and the load client to the other; server and psql runs alternate for BENCH_ROUNDS
// rounds after BENCH_WARM_UP_ROUNDS (1) left out of the figures, and each figure is printed as min/median/max beside its target and its ratio to the
// median psql rate. Prints; asserts nothing.

import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { copyTextLine } from '../apps/server/src/db/copy-text.js';
import { readAlert } from '../apps/server/src/modules/agent/eve-alerts.js';
import { CORPUS } from '../apps/server/src/test/corpus.js';
import { missingCorpusPart } from '../testing/corpus.mjs';
import { sampleAlerts } from '../testing/samples.mjs';
import { scratchDbName } from '../testing/scratch-db.mjs';
import { BENCH_ADMIN, ROOT, signIn, startBuiltServer } from './lib/built-server.js';
import { cpuSeconds, endedChildrenCpuSeconds, postgresCpuSeconds } from './lib/process-usage.js';

const ADMIN = BENCH_ADMIN;
const ADMIN_URL =
  process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TOTAL = Number(process.env['BENCH_ALERTS'] ?? 100_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
/**
 * Rounds run first and printed but left out of the figures: a server that has just started
 * runs PostgreSQL's WebAssembly on V8's baseline code until its hot functions are optimised
 * (see WASM_TIERING_BUDGET), and a running one has long since done that.
 */
const WARM_UP_ROUNDS = Number(process.env['BENCH_WARM_UP_ROUNDS'] ?? 1);
/** The agent's batch size (apps/agent: alerts are sent 1,000 at a time). */
const BATCH = 1000;
/** Devices sending at once; each sends its batches one at a time, in order (the protocol's rule). */
const DEVICES = Number(process.env['BENCH_DEVICES'] ?? 4);
const DEVICE_PASSWORD = 'bench-device-secret';
/** Servers and psql run on this CPU, the load client (this process) on the other. */
const SERVER_CPU = 1;
const CLIENT_CPU = 0;
const TARGETS = { postgres: 0.8, pglite: 0.5 } as const;
const COPY_COLUMNS =
  'org_id, device_id, time, gid, sid, rev, msg, category, severity, action, proto, app_proto, src_ip, src_port, dest_ip, dest_port, flow_id, event';

const PINNED = spawnSync('taskset', ['-c', String(SERVER_CPU), 'true']).status === 0;
const pinnedTo = (command: string[]) =>
  PINNED ? ['taskset', '-c', String(SERVER_CPU), ...command] : command;

/**
 * Every alert event of the corpus (JSON lines and JSON arrays alike); without the corpus, the
 * project's generated sample alerts (the figures are about ingest, not about these events).
 */
function corpusAlerts(): Record<string, unknown>[] {
  const missing = missingCorpusPart('eve');
  if (missing !== null) {
    console.log(`alerts bench: ${missing} not found (set PALISADE_CORPUS): sample alerts instead`);
    return sampleAlerts({ count: 2000 });
  }
  const dir = path.join(CORPUS, 'eve');
  const events: Record<string, unknown>[] = [];
  for (const name of readdirSync(dir)) {
    const text = readFileSync(path.join(dir, name), 'utf8').trim();
    const parsed: unknown[] = text.startsWith('[')
      ? (JSON.parse(text) as unknown[])
      : text.split('\n').flatMap((line) => {
          try {
            return [JSON.parse(line) as unknown];
          } catch {
            return [];
          }
        });
    for (const event of parsed) {
      if (
        typeof event === 'object' &&
        event !== null &&
        (event as { event_type?: unknown }).event_type === 'alert'
      ) {
        events.push(event as Record<string, unknown>);
      }
    }
  }
  return events;
}

const DAY_MS = 86_400_000;
/**
 * Alerts this far apart (a quarter of a second, or less if need be): all rounds' alerts fall
 * within four days from yesterday, which have their partitions.
 */
const SPACING_MS = Math.min(250, (4 * DAY_MS) / ((WARM_UP_ROUNDS + ROUNDS) * TOTAL));

/**
 * TOTAL events cycling through the corpus, SPACING_MS apart so rows differ; each round is the
 * stretch of time after the round before, from the start of yesterday (UTC), as a sensor's
 * eve.json goes on: the server makes day partitions from yesterday to three days ahead, and a
 * round that repeated an earlier round's times would put every row in the middle of the
 * PGlite server's indexes (its table keeps earlier rounds' rows), which no sensor does. Times
 * are written as Suricata writes them (`2026-11-30T10:11:12.123000+0000`), as the agent
 * forwards them.
 */
function workload(base: Record<string, unknown>[], round: number): Record<string, unknown>[] {
  const start = Math.floor(Date.now() / DAY_MS) * DAY_MS - DAY_MS + round * TOTAL * SPACING_MS;
  return Array.from({ length: TOTAL }, (_, i) => ({
    ...base[i % base.length],
    timestamp: new Date(start + i * SPACING_MS).toISOString().replace('Z', '000+0000'),
  }));
}

/** A round's events in the agent's batches, each device's share in the order it sends them. */
function batchesByDevice(events: Record<string, unknown>[]): string[][] {
  const perDevice = Array.from({ length: DEVICES }, () => [] as string[]);
  for (let i = 0, b = 0; i < events.length; i += BATCH, b += 1) {
    perDevice[b % DEVICES]?.push(JSON.stringify(events.slice(i, i + BATCH)));
  }
  return perDevice;
}

/** The COPY text the server's ingest builds from the same events, for psql to read. */
function toCopyText(events: Record<string, unknown>[], orgId: number, deviceId: number): string {
  const rows: string[] = [];
  for (const event of events) {
    const reading = readAlert(event);
    if (!('record' in reading)) continue;
    const r = reading.record;
    rows.push(
      copyTextLine([
        orgId,
        deviceId,
        r.time,
        r.gid,
        r.sid,
        r.rev,
        r.msg,
        r.category,
        r.severity,
        r.action,
        r.proto,
        r.appProto,
        r.srcIp,
        r.srcPort,
        r.destIp,
        r.destPort,
        r.flowId,
        r.event,
      ]),
    );
  }
  return rows.join('');
}

/** A server as `npm start` runs it: on PostgreSQL given a database URL, else on PGlite in dataDir. */
const startServer = (dataDir: string, databaseUrl?: string) =>
  startBuiltServer({
    dataDir,
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
    admin: ADMIN,
    cpu: SERVER_CPU,
    healthTimeoutMs: 180_000,
  });

async function api<T>(
  baseUrl: string,
  method: string,
  route: string,
  token: string,
  body?: unknown,
) {
  const response = await fetch(`${baseUrl}/api/v1${route}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Signs in, creates DEVICES devices and signs each in: their tokens and the first one's id. */
async function enrol(baseUrl: string) {
  const admin = await signIn(baseUrl);
  const tokens: string[] = [];
  let deviceId = 0;
  for (let d = 0; d < DEVICES; d += 1) {
    const device = await api<{ id: number }>(baseUrl, 'POST', '/devices/', admin, {
      name: `bench-${d}`,
      password: DEVICE_PASSWORD,
    });
    deviceId ||= device.id;
    const login = await api<{ access_token: string }>(baseUrl, 'POST', '/agent/login', '', {
      device_id: device.id,
      password: DEVICE_PASSWORD,
    });
    tokens.push(login.access_token);
  }
  return { tokens, deviceId };
}

/**
 * One agent per device, each sending its share of the batches one after another, numbered on
 * from what it sent before (a later round is a later stretch of the same agents' eve.json).
 */
async function ingest(baseUrl: string, tokens: string[], batches: string[][], sent: number[]) {
  const started = performance.now();
  await Promise.all(
    tokens.map(async (token, d) => {
      for (const events of batches[d] ?? []) {
        sent[d] = (sent[d] ?? 0) + 1;
        const response = await fetch(`${baseUrl}/api/v1/agent/alerts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: `{"seq":${sent[d]},"events":${events}}`,
        });
        if (!response.ok)
          throw new Error(`ingest failed: ${response.status} ${await response.text()}`);
        await response.arrayBuffer();
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

/** psql as its users run it: reading the rows from a file, pinned like the servers. */
function psqlCopy(url: string, file: string): number {
  const [command = 'psql', ...args] = pinnedTo([
    'psql',
    url,
    '-v',
    'ON_ERROR_STOP=1',
    '-q',
    '-c',
    `\\copy device_alerts (${COPY_COLUMNS}) FROM '${file}'`,
  ]);
  const started = performance.now();
  execFileSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  return (performance.now() - started) / 1000;
}

const stats = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return { min: s[0] ?? NaN, median: s[Math.floor(s.length / 2)] ?? NaN, max: s.at(-1) ?? NaN };
};
const rate = (n: number) => Math.round(n).toLocaleString('en').padStart(9);

async function main() {
  if (PINNED) execFileSync('taskset', ['-a', '-cp', String(CLIENT_CPU), String(process.pid)]);
  const build = spawnSync('npx', ['tsc', '-b'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the server did not build');

  const corpus = corpusAlerts();
  const dir = await mkdtemp(path.join(tmpdir(), 'palisade-ingest-bench-'));
  const dbName = scratchDbName('bench_ingest');
  const root = new pg.Client({ connectionString: ADMIN_URL });
  await root.connect();
  await root.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const db = new pg.Client({ connectionString: url.toString() });
  const stoppers: (() => Promise<void>)[] = [];
  try {
    const onPostgres = await startServer(path.join(dir, 'pg-data'), url.toString());
    stoppers.push(() => onPostgres.stop());
    const onPglite = await startServer(path.join(dir, 'pglite-data'));
    stoppers.push(() => onPglite.stop());
    const pgFleet = await enrol(onPostgres.baseUrl);
    const pgliteFleet = await enrol(onPglite.baseUrl);
    await db.connect();
    const [org] = (
      await db.query<{ id: number }>('SELECT org_id AS id FROM devices WHERE id = $1', [
        pgFleet.deviceId,
      ])
    ).rows;
    const file = path.join(dir, 'alerts.copy');
    const empty = () => db.query('TRUNCATE device_alerts, alert_signatures, alert_rollup');

    console.log(
      `alert ingest: ${TOTAL.toLocaleString('en')} eve.json alerts in batches of ${BATCH} from ` +
        `${DEVICES} devices at once; ${ROUNDS} rounds after ${WARM_UP_ROUNDS} to warm up; ` +
        (PINNED
          ? `servers and psql pinned to CPU ${SERVER_CPU}, load client to CPU ${CLIENT_CPU}`
          : 'not pinned (no taskset)'),
    );
    const seconds = { psql: [] as number[], postgres: [] as number[], pglite: [] as number[] };
    // CPU each run used, in seconds: moves much less than the rates with the machine's load.
    const cpu = { psql: [] as number[], postgres: [] as number[], pglite: [] as number[] };
    const cpuSoFar: Record<keyof typeof cpu, () => number> = {
      // psql (a child this process waits for) and the PostgreSQL server.
      psql: () => endedChildrenCpuSeconds() + postgresCpuSeconds(),
      postgres: () => cpuSeconds(onPostgres.child.pid) + postgresCpuSeconds(),
      // The server alone: its database runs inside it.
      pglite: () => cpuSeconds(onPglite.child.pid),
    };
    const measureCpu = async <T>(kind: keyof typeof cpu, run: () => T) => {
      const before = cpuSoFar[kind]();
      const result = await run();
      cpu[kind].push(cpuSoFar[kind]() - before);
      return result;
    };
    const pgSent: number[] = [];
    const pgliteSent: number[] = [];
    for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round += 1) {
      const events = workload(corpus, round);
      const perDevice = batchesByDevice(events);
      await writeFile(file, toCopyText(events, org?.id ?? 1, pgFleet.deviceId));
      // Each round in another order, so that a drift in the machine's load hits all alike.
      const order =
        round % 2 === 0
          ? (['psql', 'postgres', 'pglite'] as const)
          : (['pglite', 'postgres', 'psql'] as const);
      for (const kind of order) {
        if (kind === 'psql') {
          await empty();
          seconds.psql.push(await measureCpu('psql', () => psqlCopy(url.toString(), file)));
        } else if (kind === 'postgres') {
          await empty();
          seconds.postgres.push(
            await measureCpu('postgres', () =>
              ingest(onPostgres.baseUrl, pgFleet.tokens, perDevice, pgSent),
            ),
          );
        } else {
          // The PGlite server's table keeps the rows of earlier rounds (its data folder is its own).
          seconds.pglite.push(
            await measureCpu('pglite', () =>
              ingest(onPglite.baseUrl, pgliteFleet.tokens, perDevice, pgliteSent),
            ),
          );
        }
        const last = (values: number[]) => values.at(-1) ?? NaN;
        const name = round < WARM_UP_ROUNDS ? 'warm-up' : `round ${round - WARM_UP_ROUNDS + 1}`;
        console.log(
          `  ${name}, ${kind}: ${rate(TOTAL / last(seconds[kind]))} rows/s, ` +
            `${Math.round((last(cpu[kind]) * 1e6) / TOTAL)} ms CPU per 1,000 rows`,
        );
      }
    }
    const [stored] = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_alerts'))
      .rows;
    if (stored?.n !== TOTAL) throw new Error(`the server stored ${stored?.n} of ${TOTAL} alerts`);
    for (const kind of ['psql', 'postgres', 'pglite'] as const) {
      seconds[kind].splice(0, WARM_UP_ROUNDS);
      cpu[kind].splice(0, WARM_UP_ROUNDS);
    }

    const reference = TOTAL / stats(seconds.psql).median;
    console.log(
      `${'rows/s'.padEnd(40)}${'min'.padStart(9)}${'median'.padStart(9)}${'max'.padStart(9)}   target   ratio (median / psql median)`,
    );
    const line = (name: string, values: number[], target?: number) => {
      const s = stats(values);
      // Rates: the slowest run gives the minimum.
      const median = TOTAL / s.median;
      console.log(
        `${name.padEnd(40)}${rate(TOTAL / s.max)}${rate(median)}${rate(TOTAL / s.min)}` +
          (target === undefined
            ? '   (reference)'
            : `   ≥ ${target.toFixed(1)}×   ${(median / reference).toFixed(2)}× ${median / reference >= target ? 'met' : 'NOT met'}`),
      );
    };
    line("psql \\copy device_alerts FROM 'file'", seconds.psql);
    line('server on PostgreSQL (agent API)', seconds.postgres, TARGETS.postgres);
    line('server on PGlite, on disk (agent API)', seconds.pglite, TARGETS.pglite);
    const perThousand = (values: number[]) => {
      const s = stats(values.map((v) => (v * 1000 * 1000) / TOTAL));
      return `${s.median.toFixed(0)} ms (${s.min.toFixed(0)}–${s.max.toFixed(0)})`;
    };
    console.log(
      `CPU per 1,000 rows, median (range): psql and PostgreSQL ${perThousand(cpu.psql)}; ` +
        `the server on PostgreSQL, with PostgreSQL ${perThousand(cpu.postgres)}; ` +
        `the server on PGlite ${perThousand(cpu.pglite)}`,
    );
  } finally {
    for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
    await db.end().catch(() => undefined);
    await root.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await root.end();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
