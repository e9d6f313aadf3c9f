// The alert list at fleet scale (issue 19, item 10): with BENCH_LIST_ALERTS alerts (default
// 1,000,000) on PostgreSQL, filled as bench/alert-store.bench.ts fills them (bench/lib/alert-fill),
// times through the real API of the server as `npm start` runs it the list's first page as the
// console asks for it (100 rows, counted up to the console's COUNT_LIMIT, 10,000): unfiltered,
// with each pivot and each exclusion (the values of a row of that first page, as a click on it
// would pivot), a signature search with a quoted phrase, one with OR and one with a negation,
// and the starred and unacknowledged lists. Cases alternate, BENCH_LIST_ROUNDS rounds (default
// 7); each prints min/median/max beside the 100 ms target and then the EXPLAIN (ANALYZE,
// BUFFERS) of every statement the route runs for it: the SQL is recorded from the server's own
// alerts service (createAlertsService over a recording database), not written here. Plan nodes
// that never ran (partitions a LIMIT did not reach) are counted, not printed. Prints; asserts
// nothing.
//
// BENCH_LIST_DB=<name> reuses a database a previous run kept (BENCH_LIST_KEEP=1) instead of
// filling a new one; a reused database is not dropped.

import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { AlertListQuery } from '@palisade/contract';
import {
  openDatabase,
  statementText,
  type Database,
  type SqlParam,
} from '../apps/server/src/db/client.js';
import { createAlertsService } from '../apps/server/src/modules/alerts/alerts.service.js';
import { fillAlerts } from './lib/alert-fill.js';
import { benchDatabase } from './lib/bench-db.js';
import { BENCH_ADMIN, ROOT, signIn, startBuiltServer } from './lib/built-server.js';

const ADMIN = BENCH_ADMIN;
const TOTAL = Number(process.env['BENCH_LIST_ALERTS'] ?? 1_000_000);
const DEVICES = Number(process.env['BENCH_LIST_DEVICES'] ?? 1000);
const ROUNDS = Number(process.env['BENCH_LIST_ROUNDS'] ?? 7);
const TARGET_MS = 100;
/** The server runs on this CPU and the bench (its HTTP client) on the other, when taskset can. */
const SERVER_CPU = 1;
/** What the console asks for (apps/web/src/features/alerts/api/list-alerts.ts). */
const FIRST_PAGE = { limit: '100', count_limit: '10000' };

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const quantile = (values: number[], q: number) =>
  sorted(values)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? 0;
const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(10);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

interface Case {
  name: string;
  filter: Record<string, string>;
}

interface SampleRow {
  device_id: number;
  sid: number;
  src_ip: string;
  dest_ip: string;
  src_port: number;
  dest_port: number;
  proto: string;
}

function cases(row: SampleRow): Case[] {
  const pivots: [string, string, string][] = [
    ['device', 'device_id', String(row.device_id)],
    ['signature id', 'signature', String(row.sid)],
    ['source address', 'src_ip', row.src_ip],
    ['destination address', 'dest_ip', row.dest_ip],
    ['source port', 'src_port', String(row.src_port)],
    ['destination port', 'dest_port', String(row.dest_port)],
    ['protocol', 'proto', row.proto],
  ];
  const exclusions: [string, string, string][] = [
    ['not device', 'not_device_id', String(row.device_id)],
    ['not signature id', 'not_sid', String(row.sid)],
    ['not source address', 'not_src_ip', row.src_ip],
    ['not destination address', 'not_dest_ip', row.dest_ip],
    ['not source port', 'not_src_port', String(row.src_port)],
    ['not destination port', 'not_dest_port', String(row.dest_port)],
    ['not protocol', 'not_proto', row.proto],
  ];
  return [
    { name: 'no filter', filter: {} },
    ...[...pivots, ...exclusions].map(([name, key, value]) => ({ name, filter: { [key]: value } })),
    { name: 'search "phrase"', filter: { signature: `"signature ${row.sid}"` } },
    {
      name: 'search a OR b',
      filter: { signature: `"signature ${row.sid}" OR "signature ${row.sid + 1}"` },
    },
    { name: 'search -negation', filter: { signature: `bench -"signature ${row.sid}"` } },
    { name: 'starred', filter: { starred: 'true' } },
    { name: 'not acknowledged', filter: { acknowledged: 'false' } },
  ];
}

const pathOf = (c: Case) =>
  `/alerts/?${new URLSearchParams({ ...FIRST_PAGE, ...c.filter }).toString()}`;

async function timeGet(baseUrl: string, token: string, apiPath: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/v1${apiPath}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${apiPath}: ${response.status}`);
  return performance.now() - started;
}

/** Every statement the alerts service runs for one first page, with its parameters. */
async function statementsOf(db: Database, orgId: number, c: Case) {
  const recorded: { sql: string; params: SqlParam[] }[] = [];
  const recording: Database = {
    ...db,
    query: (sql, params) => {
      recorded.push({ sql: statementText(sql), params: [...(params ?? [])] });
      return db.query(sql, params);
    },
  };
  const principal = { userId: 1, orgId, role: 'Administrator' as const, email: ADMIN.email };
  await createAlertsService(recording).page(
    principal,
    AlertListQuery.parse({ ...FIRST_PAGE, ...c.filter }),
  );
  return recorded;
}

/** The plan's text without the nodes that never ran (and their details), counted instead. */
function prunedPlan(lines: string[]): string[] {
  const out: string[] = [];
  let skipDeeperThan = -1;
  let skipped = 0;
  for (const line of lines) {
    const indent = line.length - line.trimStart().length;
    if (skipDeeperThan >= 0 && indent > skipDeeperThan) continue;
    skipDeeperThan = -1;
    if (line.includes('(never executed)')) {
      skipped += 1;
      skipDeeperThan = indent;
      continue;
    }
    out.push(line);
  }
  if (skipped > 0) out.push(`(${skipped} plan nodes never executed, not shown)`);
  return out;
}

async function explain(db: Database, orgId: number, c: Case) {
  for (const statement of await statementsOf(db, orgId, c)) {
    const sql = statement.sql.replace(/\s+/g, ' ').trim();
    console.log(`    SQL: ${sql}`);
    console.log(`    params: ${JSON.stringify(statement.params)}`);
    const rows = await db.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`,
      statement.params,
    );
    for (const line of prunedPlan(rows.map((r) => r['QUERY PLAN']))) console.log(`      ${line}`);
  }
}

async function timeCases(baseUrl: string, token: string, list: Case[]) {
  const times = new Map<string, number[]>(list.map((c) => [c.name, []]));
  for (const c of list) await timeGet(baseUrl, token, pathOf(c)); // warm-up
  for (let round = 0; round < ROUNDS; round += 1) {
    // Each round in another order: load drifts hit all cases alike.
    for (let i = 0; i < list.length; i += 1) {
      const c = list[(i + round) % list.length];
      if (c) times.get(c.name)?.push(await timeGet(baseUrl, token, pathOf(c)));
    }
  }
  return times;
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

async function main() {
  const build = spawnSync('npx', ['tsc', '-b'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the server did not build');
  const database = await benchDatabase({
    prefix: 'bench_alert_list',
    reuse: process.env['BENCH_LIST_DB'],
    keep: process.env['BENCH_LIST_KEEP'] === '1',
  });
  const url = new URL(database.url);
  const created = database.created;
  const admin = new pg.Client({ connectionString: url.toString() });
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let db: Database | undefined;
  try {
    // The server migrates the database (and creates the administrator and organization);
    // stopped while filling, so that its retention job does not create partitions meanwhile.
    await (await startServer(url.toString())).stop();
    await admin.connect();
    const [org] = (await admin.query<{ id: number }>('SELECT id FROM organizations LIMIT 1')).rows;
    const orgId = org?.id ?? 1;
    if (created) {
      const started = performance.now();
      await fillAlerts(admin, { orgId, now: new Date(), total: TOTAL, devices: DEVICES });
      console.log(
        `filled ${TOTAL} alerts (${DEVICES} devices) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
    } else {
      await admin.query('ANALYZE device_alerts');
    }
    const [count] = (
      await admin.query<{ n: string }>('SELECT count(*)::text AS n FROM device_alerts')
    ).rows;
    server = await startServer(url.toString());
    const token = await signIn(server.baseUrl);
    db = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
    // The pivots' values: those of the 50th row of the unfiltered first page (what a click pivots on).
    const [row] = await db.query<SampleRow>(
      `SELECT device_id, sid::int AS sid, src_ip, dest_ip, src_port, dest_port, proto
         FROM device_alerts WHERE org_id = $1 ORDER BY time DESC, id DESC OFFSET 49 LIMIT 1`,
      [orgId],
    );
    if (!row) throw new Error('no alerts');
    const list = cases(row);
    console.log(
      `${count?.n} alerts on PostgreSQL; server ${server.pinned ? `pinned to CPU ${SERVER_CPU}` : 'not pinned (no taskset)'}; ` +
        `${ROUNDS} rounds, cases alternating; load average before: ${load()}`,
    );
    const times = await timeCases(server.baseUrl, token, list);
    console.log(`load average after timing: ${load()}`);
    console.log(
      `${'first page (100 rows, count ≤ 10k)'.padEnd(38)}${'target'.padStart(10)}${'min'.padStart(10)}${'median'.padStart(10)}${'max'.padStart(10)}`,
    );
    for (const c of list) {
      const t = times.get(c.name) ?? [];
      const median = quantile(t, 0.5);
      console.log(
        `${c.name.padEnd(38)}${ms(TARGET_MS)}${ms(Math.min(...t))}${ms(median)}${ms(Math.max(...t))}  ${median < TARGET_MS ? 'met' : 'NOT met'}`,
      );
    }
    console.log('\nEXPLAIN (ANALYZE, BUFFERS) of the statements each case runs:');
    for (const c of list) {
      const t = times.get(c.name) ?? [];
      console.log(
        `\n== ${c.name}: ${pathOf(c)} (median ${quantile(t, 0.5).toFixed(1)} ms, max ${Math.max(...t).toFixed(1)} ms)`,
      );
      await explain(db, orgId, c);
    }
  } finally {
    await db?.close();
    await server?.stop();
    await admin.end().catch(() => undefined);
    await database.release();
  }
}

await main();
