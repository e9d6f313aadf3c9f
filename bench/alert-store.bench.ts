// The alert store at fleet scale: fills a scratch PostgreSQL database with BENCH_STORE_ALERTS
// alerts (10 M for the issue's targets; default 1 M) spread over devices, signatures and 30 days,
// straight into day partitions (server-side INSERT … SELECT generate_series, indexes built once
// per day). Then times, through the real API of the server as `npm start` runs it against that
// database, the alerts screen's first page with each filter, the 24-hour histogram and the
// grouping by signature, each beside its target and beside GET /health timed alternately in the
// same run (the HTTP floor). The grouping by signature reads the hourly rollup; it is timed once
// more with a filter only device_alerts answers (its cost without the rollup). Last, it times
// retention dropping one day, beside deleting the next day's rows one by one (what retention did
// before partitions). Prints; asserts nothing.

import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client.js';
import { applyRetention } from '../apps/server/src/plugins/retention.js';
import { scratchDbName } from '../testing/scratch-db.mjs';
import { fillAlerts, DAYS, DAY_MS, SIGNATURES } from './lib/alert-fill.js';
import { BENCH_ADMIN, ROOT, signIn, startBuiltServer } from './lib/built-server.js';

const ADMIN = BENCH_ADMIN;
const TOTAL = Number(process.env['BENCH_STORE_ALERTS'] ?? 1_000_000);
const DEVICES = Number(process.env['BENCH_STORE_DEVICES'] ?? 1000);
const ROUNDS = Number(process.env['BENCH_STORE_ROUNDS'] ?? 15);
const ADMIN_URL =
  process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = scratchDbName('bench_alert_store');
/** Keeps the filled database after the run, to study a query's plan on it. */
const KEEP = process.env['BENCH_STORE_KEEP'] === '1';
/** The server runs on this CPU and the bench (its HTTP client) on the other, when taskset can. */
const SERVER_CPU = 1;

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const quantile = (values: number[], q: number) =>
  sorted(values)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? 0;
const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(10);

async function startServer(databaseUrl: string) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'palisade-bench-'));
  const server = await startBuiltServer({ dataDir, databaseUrl, admin: ADMIN, cpu: SERVER_CPU });
  return {
    ...server,
    async stop() {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

interface Case {
  name: string;
  path: string;
  targetMs: number;
}

function cases(now: Date, deviceId: number): Case[] {
  const since = new Date(now.getTime() - DAY_MS).toISOString();
  const until = now.toISOString();
  const page = (name: string, filter: string): Case => ({
    name: `first page, ${name}`,
    path: `/alerts/?limit=100&count_limit=10000${filter ? `&${filter}` : ''}`,
    targetMs: 100,
  });
  return [
    page('no filter', ''),
    page('device', `device_id=${deviceId}`),
    page('since 24 h', `since=${encodeURIComponent(since)}`),
    page(
      'until 7 days ago',
      `until=${encodeURIComponent(new Date(now.getTime() - 7 * DAY_MS).toISOString())}`,
    ),
    page('severity 1', 'severity=1'),
    page('signature id', 'signature=2002500'),
    page('signature text', 'signature=signature%202002500'),
    page('source address', 'src_ip=198.51.7.7'),
    page('destination address', 'dest_ip=10.1.7.7'),
    page('source port', 'src_port=40000'),
    page('destination port', 'dest_port=3389'),
    page('protocol', 'proto=ICMP'),
    page('acknowledged', 'acknowledged=true'),
    page('not acknowledged', 'acknowledged=false'),
    {
      name: 'histogram, 24 h',
      path: `/alerts/histogram?buckets=60&since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`,
      targetMs: 150,
    },
    {
      name: 'groups by signature, 24 h',
      path: `/alerts/groups?limit=100&since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`,
      targetMs: 300,
    },
    {
      // A filter the rollup does not answer: the same grouping read from device_alerts alone.
      name: 'groups, 24 h, unacknowledged',
      path: `/alerts/groups?limit=100&acknowledged=false&since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`,
      targetMs: 300,
    },
  ];
}

async function timeGet(baseUrl: string, token: string, apiPath: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/v1${apiPath}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${apiPath}: ${response.status}`);
  return performance.now() - started;
}

async function timeCases(baseUrl: string, token: string, list: Case[]) {
  const times = new Map<string, number[]>(list.map((c) => [c.name, []]));
  const health: number[] = [];
  for (const c of list) await timeGet(baseUrl, token, c.path); // warm-up
  for (let round = 0; round < ROUNDS; round += 1) {
    // Each round in another order, each case after a /health call: load drifts hit all alike.
    for (let i = 0; i < list.length; i += 1) {
      const c = list[(i + round) % list.length];
      if (!c) continue;
      health.push(await timeGet(baseUrl, token, '/health'));
      times.get(c.name)?.push(await timeGet(baseUrl, token, c.path));
    }
  }
  const healthMedian = quantile(health, 0.5);
  console.log(
    `${'case'.padEnd(34)}${'target'.padStart(10)}${'median'.padStart(10)}${'p95'.padStart(10)}${'min'.padStart(10)}${'max'.padStart(10)}  median/target  median/health`,
  );
  for (const c of list) {
    const t = times.get(c.name) ?? [];
    const median = quantile(t, 0.5);
    console.log(
      `${c.name.padEnd(34)}${ms(c.targetMs)}${ms(median)}${ms(quantile(t, 0.95))}${ms(Math.min(...t))}${ms(Math.max(...t))}  ${(median / c.targetMs).toFixed(2).padStart(13)}  ${(median / healthMedian).toFixed(1).padStart(13)}`,
    );
  }
  console.log(
    `${'GET /health (reference)'.padEnd(34)}${''.padStart(10)}${ms(healthMedian)}${ms(quantile(health, 0.95))}${ms(Math.min(...health))}${ms(Math.max(...health))}`,
  );
}

async function timeRetention(url: string, admin: pg.Client, today: Date) {
  const db = await openDatabase({ databaseUrl: url, dataDir: '' });
  try {
    const oldest = new Date(today.getTime() - (DAYS - 1) * DAY_MS);
    const next = new Date(oldest.getTime() + DAY_MS);
    // A cutoff at the end of the oldest day: exactly that day is past retention.
    const now = new Date(next.getTime() + (DAYS - 1) * DAY_MS);
    // The coming days' partitions first, so that the timed run only drops.
    const policy = (days: number) => ({ alertRetentionDays: days, metricRetentionDays: 365 });
    await applyRetention(db, policy(DAYS + 1), now);
    let started = performance.now();
    const deleted = await applyRetention(db, policy(DAYS - 1), now);
    const dropMs = performance.now() - started;
    started = performance.now();
    const { rowCount } = await admin.query(
      'DELETE FROM device_alerts WHERE time >= $1 AND time < $2',
      [next, new Date(next.getTime() + DAY_MS)],
    );
    const deleteMs = performance.now() - started;
    console.log(
      `retention: dropped ${deleted['device_alert_days_dropped']} day(s) in ${ms(dropMs)}; ` +
        `deleting the next day's ${rowCount} rows one by one (reference) took ${ms(deleteMs)}: ` +
        `${(deleteMs / dropMs).toFixed(0)}× longer`,
    );
  } finally {
    await db.close();
  }
}

async function main() {
  const build = spawnSync('npx', ['tsc', '-b'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the server did not build');
  const server0 = new pg.Client({ connectionString: ADMIN_URL });
  await server0.connect();
  await server0.query(`CREATE DATABASE ${DB_NAME}`);
  await server0.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  const admin = new pg.Client({ connectionString: url.toString() });
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    // The server migrates the empty database and creates the administrator and organization;
    // stopped while filling, so that its retention job does not create partitions meanwhile.
    await (await startServer(url.toString())).stop();
    await admin.connect();
    const [org] = (await admin.query<{ id: number }>('SELECT id FROM organizations LIMIT 1')).rows;
    const now = new Date();
    let started = performance.now();
    const { today } = await fillAlerts(admin, {
      orgId: org?.id ?? 1,
      now,
      total: TOTAL,
      devices: DEVICES,
    });
    const fillSeconds = (performance.now() - started) / 1000;
    const [size] = (
      await admin.query<{ total: string; n: string }>(
        `SELECT pg_size_pretty(sum(pg_total_relation_size(inhrelid))) AS total,
                (SELECT count(*) FROM device_alerts)::text AS n
           FROM pg_inherits WHERE inhparent = 'device_alerts'::regclass`,
      )
    ).rows;
    const [rollup] = (
      await admin.query<{ total: string; n: string }>(
        `SELECT pg_size_pretty(sum(pg_total_relation_size(inhrelid))) AS total,
                (SELECT count(*) FROM alert_rollup)::text AS n
           FROM pg_inherits WHERE inhparent = 'alert_rollup'::regclass`,
      )
    ).rows;
    console.log(
      `filled ${size?.n} alerts (${DEVICES} devices, ${SIGNATURES} signatures, ${DAYS} days) in ${fillSeconds.toFixed(0)} s ` +
        `(${(Number(size?.n) / fillSeconds / 1000).toFixed(0)} k/s incl. indexes and VACUUM ANALYZE); ${size?.total} on disk` +
        `; rollup: ${rollup?.n} rows, ${rollup?.total}`,
    );
    server = await startServer(url.toString());
    console.log(
      `server ${server.pinned ? `pinned to CPU ${SERVER_CPU}` : 'not pinned (no taskset)'}; ${ROUNDS} rounds`,
    );
    const token = await signIn(server.baseUrl);
    const [device] = (
      await admin.query<{ id: number }>(`SELECT id FROM devices WHERE name = 'bench-10'`)
    ).rows;
    started = performance.now();
    await timeCases(server.baseUrl, token, cases(now, device?.id ?? 1));
    await server.stop();
    server = undefined;
    await timeRetention(url.toString(), admin, today);
  } finally {
    await server?.stop();
    await admin.end().catch(() => undefined);
    const cleanup = new pg.Client({ connectionString: ADMIN_URL });
    await cleanup.connect();
    if (KEEP) console.log(`kept the database ${DB_NAME} (BENCH_STORE_KEEP): drop it when done`);
    else await cleanup.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await cleanup.end();
  }
}

await main();
