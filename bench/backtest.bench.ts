// The backtest of a tuning change (issue 20, items 1 and 6): with BENCH_BACKTEST_ALERTS alerts
// (default 1,000,000) on PostgreSQL, filled as bench/alert-list.bench.ts fills them
// (bench/lib/alert-fill: 1,000 devices, 3,000 signatures, 30 days), every device running one
// policy, times POST /policies/{id}/backtest over 30 days through the server as `npm start`
// runs it, for the tunings an analyst tries on the noisiest signature: disable its rule,
// suppress its busiest source, a `limit` threshold by source, and all three at once. The
// reference, alternated with them: psql itself counting the window's alerts per device from
// device_alerts, as a user of the database would get the totals every backtest answers (the
// backtest reads them from the per-day and per-hour counts ingest keeps).
// Prints min/median/max of BENCH_BACKTEST_ROUNDS rounds (default 7) beside the 500 ms target;
// asserts nothing.
//
// BENCH_BACKTEST_DB=<name> reuses a database a previous run kept (BENCH_BACKTEST_KEEP=1).

import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { fillAlerts } from './lib/alert-fill.js';
import { benchDatabase } from './lib/bench-db.js';
import { BENCH_ADMIN, ROOT, signIn, startBuiltServer } from './lib/built-server.js';

const TOTAL = Number(process.env['BENCH_BACKTEST_ALERTS'] ?? 1_000_000);
const DEVICES = Number(process.env['BENCH_BACKTEST_DEVICES'] ?? 1000);
const ROUNDS = Number(process.env['BENCH_BACKTEST_ROUNDS'] ?? 7);
const DAYS = 30;
const TARGET_MS = 500;
const SERVER_CPU = 1;

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)] ?? 0;
const ms = (value: number) => `${value.toFixed(0)} ms`.padStart(10);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

interface Case {
  name: string;
  /** One timed run; answers what the run removed, to print beside its time. */
  run: () => Promise<string>;
}

async function main() {
  const build = spawnSync('npx', ['tsc', '-b'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the server did not build');
  const database = await benchDatabase({
    prefix: 'bench_backtest',
    reuse: process.env['BENCH_BACKTEST_DB'],
    keep: process.env['BENCH_BACKTEST_KEEP'] === '1',
  });
  const url = new URL(database.url);
  const admin = new pg.Client({ connectionString: url.toString() });
  const dataDir = await mkdtemp(path.join(tmpdir(), 'palisade-bench-'));
  const start = () =>
    startBuiltServer({ dataDir, databaseUrl: url.toString(), admin: BENCH_ADMIN, cpu: SERVER_CPU });
  let server: Awaited<ReturnType<typeof start>> | undefined;
  try {
    // Migrated by the server, then stopped while filling (its retention job would add days).
    await (await start()).stop();
    await admin.connect();
    const [org] = (await admin.query<{ id: number }>('SELECT id FROM organizations LIMIT 1')).rows;
    const orgId = org?.id ?? 1;
    if (database.created) {
      const started = performance.now();
      await fillAlerts(admin, { orgId, now: new Date(), total: TOTAL, devices: DEVICES });
      console.log(
        `filled ${TOTAL} alerts in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
    }
    server = await start();
    const token = await signIn(server.baseUrl);
    const call = async (method: string, route: string, body?: object) => {
      const response = await fetch(`${server?.baseUrl}/api/v1/${route}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
      return JSON.parse(text) as Record<string, unknown>;
    };

    // The policy every device runs, and the noisiest signature with its busiest source.
    const policy = await call('POST', 'policies/', { name: `backtest ${Date.now()}` });
    const policyId = Number(policy['id']);
    await admin.query('UPDATE devices SET policy_id = $1 WHERE org_id = $2', [policyId, orgId]);
    const [noisy] = (
      await admin.query<{ sid: number; n: number }>(
        `SELECT sid::int AS sid, count(*)::int AS n FROM device_alerts
          WHERE time >= now() - interval '${DAYS} days' GROUP BY sid ORDER BY n DESC LIMIT 1`,
      )
    ).rows;
    if (!noisy) throw new Error('no alerts');
    const [source] = (
      await admin.query<{ src_ip: string }>(
        `SELECT src_ip FROM device_alerts WHERE sid = $1 GROUP BY src_ip ORDER BY count(*) DESC LIMIT 1`,
        [noisy.sid],
      )
    ).rows;
    const existing = await admin.query<{ id: number }>(
      'SELECT id FROM rules WHERE org_id = $1 AND sid = $2',
      [orgId, noisy.sid],
    );
    const ruleId =
      existing.rows[0]?.id ??
      Number(
        (
          await call('POST', 'rules/', {
            text: `alert ip any any -> any any (msg:"ET bench signature ${noisy.sid}"; sid:${noisy.sid}; rev:3;)`,
          })
        )['id'],
      );
    const disable = { overrides: [{ rule_id: ruleId, action: 'disable' }] };
    const suppress = {
      thresholds: [
        { kind: 'suppress', gid: 1, sid: noisy.sid, track: 'by_src', ip: source?.src_ip ?? '' },
      ],
    };
    const limit = {
      thresholds: [
        {
          kind: 'threshold',
          gid: 1,
          sid: noisy.sid,
          type: 'limit',
          track: 'by_src',
          count: 1,
          seconds: 3600,
        },
      ],
    };
    const backtest = (entries: object) => async () => {
      const result = await call('POST', `policies/${policyId}/backtest`, {
        days: DAYS,
        ...entries,
      });
      return `removed ${String(result['removed'])} of ${String(result['total'])}`;
    };
    // The totals every backtest answers: the window's alerts counted per device.
    const totalsSql =
      `SELECT device_id, count(*) FROM device_alerts ` +
      `WHERE org_id = ${orgId} AND time >= now() - interval '${DAYS} days' GROUP BY 1`;
    const cases: Case[] = [
      {
        name: 'psql: the window counted (reference)',
        run: async () => {
          const psql = spawnSync(
            'psql',
            [url.toString(), '-qAt', '-c', `SELECT count(*) FROM (${totalsSql}) t`],
            {
              encoding: 'utf8',
            },
          );
          if (psql.status !== 0) throw new Error(psql.stderr);
          return `${psql.stdout.trim()} devices`;
        },
      },
      { name: `disable rule ${noisy.sid}`, run: backtest(disable) },
      { name: `suppress ${source?.src_ip ?? ''} for it`, run: backtest(suppress) },
      { name: 'limit 1 per hour by source', run: backtest(limit) },
      {
        name: 'all three at once',
        run: backtest({ ...disable, thresholds: [...suppress.thresholds, ...limit.thresholds] }),
      },
    ];

    console.log(
      `${TOTAL} alerts, ${DEVICES} devices on one policy; signature ${noisy.sid} has ${noisy.n} ` +
        `alerts in ${DAYS} days; server ${server.pinned ? `pinned to CPU ${SERVER_CPU}` : 'not pinned'}; ` +
        `${ROUNDS} rounds alternating; load average before: ${load()}`,
    );
    const times = new Map(cases.map((c) => [c.name, [] as number[]]));
    const said = new Map<string, string>();
    for (const c of cases) said.set(c.name, await c.run()); // warm-up
    for (let round = 0; round < ROUNDS; round += 1)
      for (let i = 0; i < cases.length; i += 1) {
        const c = cases[(i + round) % cases.length];
        if (!c) continue;
        const started = performance.now();
        await c.run();
        times.get(c.name)?.push(performance.now() - started);
      }
    console.log(`load average after: ${load()}`);
    const reference = median(times.get(cases[0]?.name ?? '') ?? []);
    console.log(
      `${'30 days'.padEnd(38)}${'min'.padStart(10)}${'median'.padStart(10)}${'max'.padStart(10)}${'× psql'.padStart(9)}  target ${TARGET_MS} ms`,
    );
    for (const c of cases) {
      const t = times.get(c.name) ?? [];
      const m = median(t);
      const verdict = c === cases[0] ? '' : m < TARGET_MS ? 'met' : 'NOT met';
      console.log(
        `${c.name.padEnd(38)}${ms(Math.min(...t))}${ms(m)}${ms(Math.max(...t))}${(m / reference).toFixed(2).padStart(8)}×  ${verdict}  (${said.get(c.name) ?? ''})`,
      );
    }
  } finally {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
    await admin.end().catch(() => undefined);
    await database.release();
  }
}

await main();
