// Alert ingest: eve.json alerts sent through the agent API (HTTP, JSON parsing and validation
// included) into the PostgreSQL server and into PGlite, beside a bulk COPY of the same rows
// into a table of the same shape and indexes in the same run (psql \copy on the server, COPY
// from a blob on PGlite). Prints rates and ratios; asserts nothing.

import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { pgliteDatabase } from '../apps/server/src/db/client.js';
import { copyTextLine } from '../apps/server/src/db/copy-text.js';
import { migrate } from '../apps/server/src/db/migrate.js';
import { readAlert } from '../apps/server/src/modules/agent/eve-alerts.js';
import { CORPUS } from '../apps/server/src/test/corpus.js';
import { missingCorpusPart } from '../testing/corpus.mjs';
import { sampleAlerts } from '../testing/samples.mjs';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  signIn,
  startTestServer,
} from '../apps/server/src/test/harness.js';

const TOTAL = Number(process.env['BENCH_ALERTS'] ?? 100_000);
const BATCH = 1000;
/** Devices sending at once; each sends its batches one at a time, in order (the protocol's rule). */
const DEVICES = Number(process.env['BENCH_DEVICES'] ?? 4);

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

/**
 * TOTAL events cycling through the corpus, each a second apart so rows differ, ending now:
 * older ones would fall to the retention job while the benchmark runs.
 */
function workload(): Record<string, unknown>[] {
  const base = corpusAlerts();
  const start = Date.now() - TOTAL * 1000;
  return Array.from({ length: TOTAL }, (_, i) => ({
    ...base[i % base.length],
    timestamp: new Date(start + i * 1000).toISOString(),
  }));
}

/** The same COPY text the server's ingest builds, for the reference COPY. */
function toCopyText(events: Record<string, unknown>[], orgId: number, deviceId: number): string {
  let rows = '';
  for (const event of events) {
    const reading = readAlert(event);
    if (!('record' in reading)) continue;
    const r = reading.record;
    rows += copyTextLine([
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
    ]);
  }
  return rows;
}

const COPY_COLUMNS =
  'org_id, device_id, time, gid, sid, rev, msg, category, severity, action, proto, app_proto, src_ip, src_port, dest_ip, dest_port, flow_id, event';

async function viaAgentApi(kind: 'pglite' | 'postgres', events: Record<string, unknown>[]) {
  process.env['TEST_DB'] = kind;
  const server = await startTestServer();
  try {
    const admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const tokens: string[] = [];
    let firstDevice = 0;
    for (let d = 0; d < DEVICES; d += 1) {
      const device = await server.app.inject({
        method: 'POST',
        url: '/api/v1/devices/',
        headers: admin,
        payload: { name: `bench-${d}`, password: 'bench-device-secret' },
      });
      const deviceId = device.json<{ id: number }>().id;
      firstDevice ||= deviceId;
      const login = await server.app.inject({
        method: 'POST',
        url: '/api/v1/agent/login',
        payload: { device_id: deviceId, password: 'bench-device-secret' },
      });
      tokens.push(login.json<{ access_token: string }>().access_token);
    }
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as { port: number };
    // Device d sends every DEVICES-th batch, numbered 1, 2, 3, … on its own.
    const perDevice = tokens.map(() => [] as string[]);
    for (let i = 0, b = 0; i < events.length; i += BATCH, b += 1) {
      const mine = perDevice[b % DEVICES] ?? [];
      mine.push(JSON.stringify({ seq: mine.length + 1, events: events.slice(i, i + BATCH) }));
    }

    const started = performance.now();
    await Promise.all(
      tokens.map(async (token, d) => {
        for (const body of perDevice[d] ?? []) {
          const response = await fetch(`http://127.0.0.1:${port}/api/v1/agent/alerts`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body,
          });
          if (!response.ok)
            throw new Error(`ingest failed: ${response.status} ${await response.text()}`);
          await response.arrayBuffer();
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const [stored] = await server.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM device_alerts',
    );
    return {
      seconds,
      stored: stored?.n ?? 0,
      orgDevice: { orgId: 1, deviceId: firstDevice },
      server,
    };
  } catch (error) {
    await server.close();
    throw error;
  }
}

async function psqlCopy(url: string, rows: string): Promise<number> {
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      'psql',
      [url, '-v', 'ON_ERROR_STOP=1', '-q', '-c', `\\copy bench_copy (${COPY_COLUMNS}) FROM STDIN`],
      {
        stdio: ['pipe', 'inherit', 'inherit'],
      },
    );
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`psql exited ${code}`))));
    child.stdin.end(rows);
  });
  return (performance.now() - started) / 1000;
}

async function pgliteCopy(rows: string): Promise<number> {
  const pg = await PGlite.create();
  await migrate(pgliteDatabase(pg));
  await pg.exec(`INSERT INTO organizations (name) VALUES ('bench');
    INSERT INTO devices (org_id, name, password_hash) VALUES (1, 'bench', 'x');
    CREATE TABLE bench_copy (LIKE device_alerts INCLUDING ALL);`);
  const started = performance.now();
  await pg.query(`COPY bench_copy (${COPY_COLUMNS}) FROM '/dev/blob'`, [], {
    blob: new Blob([rows]),
  });
  const seconds = (performance.now() - started) / 1000;
  await pg.close();
  return seconds;
}

const events = workload();
console.log(
  `alert ingest: ${TOTAL} eve.json alerts in batches of ${BATCH} from ${DEVICES} devices at once`,
);
const kinds = (process.env['BENCH_DB'] ?? 'postgres,pglite').split(',') as (
  'postgres' | 'pglite'
)[];
for (const kind of kinds) {
  const api = await viaAgentApi(kind, events);
  const rows = toCopyText(events, api.orgDevice.orgId, api.orgDevice.deviceId);
  let copySeconds: number;
  if (kind === 'postgres') {
    await api.server.db.query('CREATE TABLE bench_copy (LIKE device_alerts INCLUDING ALL)');
    const [row] = await api.server.db.query<{ db: string }>('SELECT current_database() AS db');
    copySeconds = await psqlCopy(`postgres://postgres@127.0.0.1:5432/${row?.db ?? ''}`, rows);
  } else {
    copySeconds = await pgliteCopy(rows);
  }
  await api.server.close();
  const apiRate = api.stored / api.seconds;
  const copyRate = TOTAL / copySeconds;
  const target = kind === 'postgres' ? 0.8 : 0.5;
  console.log(
    `${kind.padEnd(8)} agent API ${Math.round(apiRate).toLocaleString('en')} alerts/s (${api.stored} stored in ${api.seconds.toFixed(2)} s)` +
      ` | COPY ${Math.round(copyRate).toLocaleString('en')} rows/s (${copySeconds.toFixed(2)} s)` +
      ` | ratio ${(apiRate / copyRate).toFixed(2)}× (target ≥ ${target}×)`,
  );
}
