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
import { ROOT, startBuiltServer } from './lib/built-server.js';

const ADMIN = { email: 'admin@example.com', password: 'Admin#2026' };
const TOTAL = Number(process.env['BENCH_STORE_ALERTS'] ?? 1_000_000);
const DEVICES = Number(process.env['BENCH_STORE_DEVICES'] ?? 1000);
const SIGNATURES = 3000;
const DAYS = 30;
const ROUNDS = Number(process.env['BENCH_STORE_ROUNDS'] ?? 15);
const ADMIN_URL =
  process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = scratchDbName('bench_alert_store');
/** Keeps the filled database after the run, to study a query's plan on it. */
const KEEP = process.env['BENCH_STORE_KEEP'] === '1';
const DAY_MS = 86_400_000;
/** The server runs on this CPU and the bench (its HTTP client) on the other, when taskset can. */
const SERVER_CPU = 1;

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const quantile = (values: number[], q: number) =>
  sorted(values)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? 0;
const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(10);

/** One day's alerts: ids and times in ingest order, a few noisy signatures and devices. */
function fillDaySql(table: string, dayStart: Date, perDay: number, firstId: number, orgId: number) {
  return `
    INSERT INTO ${table} (id, org_id, device_id, time, gid, sid, rev, msg, category, severity,
                          action, proto, app_proto, src_ip, src_port, dest_ip, dest_port,
                          flow_id, event, received_at, acknowledged_at)
    SELECT ${firstId} + s.g, ${orgId}, dev.first_id + s.device, s.time, 1, s.sid, 3,
           'ET bench signature ' || s.sid, 'Class ' || (s.sid % 7),
           1 + (s.sid % 3), 'allowed', s.proto,
           CASE s.dest_port WHEN 443 THEN 'tls' WHEN 80 THEN 'http' WHEN 53 THEN 'dns' END,
           s.src_ip, s.src_port, s.dest_ip, s.dest_port, s.g,
           jsonb_build_object('timestamp', s.time, 'event_type', 'alert', 'src_ip', s.src_ip,
             'src_port', s.src_port, 'dest_ip', s.dest_ip, 'dest_port', s.dest_port,
             'proto', s.proto, 'flow_id', s.g,
             'alert', jsonb_build_object('action', 'allowed', 'gid', 1, 'signature_id', s.sid,
               'rev', 3, 'signature', 'ET bench signature ' || s.sid, 'severity', 1 + (s.sid % 3)),
             'flow', jsonb_build_object('pkts_toserver', s.g % 97, 'bytes_toserver', s.g % 9973)),
           s.time, CASE WHEN s.g % 1000 = 0 THEN s.time END
      FROM (SELECT r.*, CASE WHEN r.icmp THEN 'ICMP' WHEN r.dest_port IN (53, 123, 5060) THEN 'UDP'
                             ELSE 'TCP' END AS proto
              FROM (SELECT g,
                           timestamptz '${dayStart.toISOString()}' + ((g - 1)::float8 / ${perDay}) * interval '1 day' AS time,
                           floor(${DEVICES} * power(random(), 2))::int AS device,
                           2000000 + floor(${SIGNATURES} * power(random(), 3))::int AS sid,
                           '198.51.' || floor(random() * 256)::int || '.' || floor(random() * 256)::int AS src_ip,
                           1024 + floor(random() * 64000)::int AS src_port,
                           '10.1.' || floor(random() * 256)::int || '.' || floor(random() * 64)::int AS dest_ip,
                           (ARRAY[443, 443, 443, 443, 80, 80, 80, 53, 53, 22, 445, 3389, 8080, 25, 123, 5060])
                             [1 + floor(random() * 16)::int] AS dest_port,
                           random() < 0.01 AS icmp
                      FROM generate_series(1, ${perDay}) g) r) s
      CROSS JOIN (SELECT min(id) AS first_id FROM devices WHERE name LIKE 'bench-%') dev`;
}

async function fill(admin: pg.Client, orgId: number, now: Date) {
  await admin.query(
    `INSERT INTO devices (org_id, name, password_hash)
     SELECT $1, 'bench-' || g, 'x' FROM generate_series(1, $2::int) g`,
    [orgId, DEVICES],
  );
  const perDay = Math.ceil(TOTAL / DAYS);
  const today = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  for (let back = DAYS - 1; back >= 0; back -= 1) {
    const day = new Date(today.getTime() - back * DAY_MS);
    const name = `device_alerts_p${day.toISOString().slice(0, 10).replaceAll('-', '')}`;
    const to = new Date(day.getTime() + DAY_MS).toISOString();
    // Today's and the coming days' partitions may be there already (the server's retention job).
    await admin.query(`DROP TABLE IF EXISTS ${name}`);
    await admin.query(
      `CREATE TABLE ${name} (LIKE device_alerts INCLUDING DEFAULTS,
         CHECK (time >= '${day.toISOString()}' AND time < '${to}'))`,
    );
    const firstId = (DAYS - 1 - back) * perDay;
    await admin.query(fillDaySql(name, day, perDay, firstId, orgId));
    // Attaching builds the day's indexes in one sorted pass each.
    await admin.query(
      `ALTER TABLE device_alerts ATTACH PARTITION ${name} FOR VALUES FROM ('${day.toISOString()}') TO ('${to}')`,
    );
    // The day's rollup, as ingest would have kept it.
    const rollup = name.replace('device_alerts_', 'alert_rollup_');
    await admin.query(`DROP TABLE IF EXISTS ${rollup}`);
    await admin.query(
      `CREATE TABLE ${rollup} (LIKE alert_rollup INCLUDING DEFAULTS,
         CHECK (hour >= '${day.toISOString()}' AND hour < '${to}'))`,
    );
    await admin.query(
      `INSERT INTO ${rollup} (org_id, device_id, hour, gid, sid, severity, count, first_seen, last_seen)
       SELECT org_id, device_id, date_trunc('hour', time, 'UTC'), gid, sid, severity, count(*),
              min(time), max(time)
         FROM ${name} GROUP BY org_id, device_id, date_trunc('hour', time, 'UTC'), gid, sid, severity`,
    );
    await admin.query(
      `ALTER TABLE alert_rollup ATTACH PARTITION ${rollup} FOR VALUES FROM ('${day.toISOString()}') TO ('${to}')`,
    );
  }
  await admin.query(
    `SELECT setval(pg_get_serial_sequence('device_alerts', 'id'), ${DAYS * perDay + 1})`,
  );
  // The signature catalogue, as ingest would have kept it.
  await admin.query(
    `INSERT INTO alert_signatures (org_id, gid, sid, msg)
     SELECT DISTINCT org_id, gid, sid, msg FROM device_alerts WHERE msg IS NOT NULL
     ON CONFLICT (org_id, coalesce(gid, -1), coalesce(sid, -1), md5(msg)) DO NOTHING`,
  );
  await admin.query('VACUUM ANALYZE device_alerts');
  await admin.query('VACUUM ANALYZE alert_rollup');
  return { perDay, today };
}

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

async function signIn(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v1/login/access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: ADMIN.email, password: ADMIN.password }),
  });
  const body = (await response.json()) as { access_token: string };
  return body.access_token;
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
    path: `/alerts/?limit=100&count_limit=100000${filter ? `&${filter}` : ''}`,
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
  const copy = spawnSync('npm', ['run', 'build', '-w', '@palisade/server'], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  if (build.status !== 0 || copy.status !== 0) throw new Error('the server did not build');
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
    const { today } = await fill(admin, org?.id ?? 1, now);
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
