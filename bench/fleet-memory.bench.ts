// What memory the server needs for a fleet (issue 16, item 5): the built server, started as
// `npm start` runs it, with N simulated devices (`palisade-agent fleet`, at most 1,000 per
// process) connected to it: each device holds its push stream open, heartbeats at the server's
// period (30 s) and sends simulated alerts (0.2 a second between bursts). For each database
// (BENCH_MEMORY_DBS, default pglite,postgres; PostgreSQL is the server at BENCH_POSTGRES_URL,
// default postgres://postgres@127.0.0.1:5432/postgres, on a scratch database) and fleet size
// (BENCH_MEMORY_FLEET_SIZES, default 100,1000,3000) it prints the server's resident memory
// (VmRSS): idle with the devices stored but none connected (the reference), then sampled every
// 5 s for BENCH_MEMORY_WINDOW seconds (default 60, two heartbeat periods) once every device is
// online: median and max, and per device above the idle figure. Asserts nothing.

import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import argon2 from 'argon2';
import pg from 'pg';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  agentProcess,
  ConsoleClient,
  type TestProcess,
} from '../apps/agent/src/testing/processes.js';
import { scratchDbName } from '../testing/scratch-db.mjs';
import { startBuiltServer, type BuiltServer } from './lib/built-server.js';
import { rssKiB } from './lib/process-usage.js';

const SIZES = (process.env['BENCH_MEMORY_FLEET_SIZES'] ?? '100,1000,3000').split(',').map(Number);
const DBS = (process.env['BENCH_MEMORY_DBS'] ?? 'pglite,postgres').split(',');
const WINDOW_SECONDS = Number(process.env['BENCH_MEMORY_WINDOW'] ?? 60);
const ADMIN_URL =
  process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DEVICES_PER_PROCESS = 1000;
const SAMPLE_EVERY_MS = 5000;
const SIGN_INS_PER_SECOND = Number(process.env['BENCH_MEMORY_SIGN_INS'] ?? 20);
const PASSWORD = 'bench-device-password';
const admin = { email: ADMIN_EMAIL, password: ADMIN_PASSWORD };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (kib: number) => `${Math.round(kib / 1024)} MB`;

/**
 * Copies of the first device up to `size`, in one statement (hashing each through the API takes
 * minutes). The fleet's start is not what is measured: every device's password gets the
 * cheapest argon2id hash (1 MiB, 1 pass; the server verifies with the hash's own parameters),
 * or on a loaded machine the sign-ins time out faster than they are verified.
 */
const COPY_DEVICES = `
  WITH cheap AS (UPDATE devices SET password_hash = $3 WHERE id = $1 RETURNING *)
  INSERT INTO devices (org_id, name, password_hash, policy_id, config_version, config_sha256)
  SELECT org_id, 'fleet-' || g, password_hash, policy_id, config_version, config_sha256
    FROM cheap, generate_series(2, $2::int) g ORDER BY g`;

interface Database {
  kind: 'pglite' | 'postgres';
  url?: string;
  /** Runs the statement on the database while no server holds it. */
  exec(sql: string, params: unknown[]): Promise<void>;
  drop(): Promise<void>;
}

async function scratchDatabase(kind: string, dataDir: string, size: number): Promise<Database> {
  if (kind === 'pglite') {
    return {
      kind: 'pglite',
      async exec(sql, params) {
        const db = await PGlite.create(path.join(dataDir, 'pglite'));
        try {
          await db.query(sql, params);
        } finally {
          await db.close();
        }
      },
      drop: async () => undefined,
    };
  }
  const name = scratchDbName(`bench_fleet_memory_${size}`);
  const server = new pg.Client({ connectionString: ADMIN_URL });
  await server.connect();
  await server.query(`CREATE DATABASE ${name}`);
  await server.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    kind: 'postgres',
    url: url.toString(),
    async exec(sql, params) {
      const db = new pg.Client({ connectionString: url.toString() });
      await db.connect();
      try {
        await db.query(sql, params);
      } finally {
        await db.end();
      }
    },
    async drop() {
      const again = new pg.Client({ connectionString: ADMIN_URL });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
}

/** The last status line a fleet process printed (every 10 s). */
interface FleetStatus {
  push: number;
  heartbeats: number;
  errors: number;
  alerts: number;
}
const NO_STATUS: FleetStatus = { push: 0, heartbeats: 0, errors: 0, alerts: 0 };

function fleetStatus(logFile: string): FleetStatus {
  let text: string;
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return NO_STATUS;
  }
  const lines = text.trimEnd().split('\n').reverse();
  for (const line of lines) {
    if (!line.startsWith('{"fleet"')) continue;
    return { ...NO_STATUS, ...(JSON.parse(line) as Partial<FleetStatus>) };
  }
  return NO_STATUS;
}

interface Figures {
  idle: number;
  median: number;
  max: number;
  onlineSeconds: number;
  online: number;
  heartbeatsPerSecond: number;
  errorsPerSecond: number;
  alertsPerSecond: number;
}

async function measure(kind: string, size: number, dir: string): Promise<Figures> {
  const dataDir = path.join(dir, `${kind}-${size}-data`);
  const database = await scratchDatabase(kind, dataDir, size);
  const start = () =>
    startBuiltServer({
      dataDir,
      admin,
      stderr: 'ignore',
      healthTimeoutMs: 300_000,
      ...(database.url === undefined ? {} : { databaseUrl: database.url }),
    });
  let server: BuiltServer | undefined;
  const fleets: { process: TestProcess; log: string }[] = [];
  try {
    // The first start creates the schema and the administrator; the policy and one device
    // go through the API, the rest are copied while the server is stopped (PGlite has one
    // connection, which the server holds).
    server = await start();
    const console_ = new ConsoleClient(server.baseUrl);
    await console_.signIn();
    await console_.importRules(
      'fleet.rules',
      Array.from(
        { length: 200 },
        (_, i) =>
          `alert tcp $EXTERNAL_NET any -> $HOME_NET ${1000 + i} (msg:"FLEET rule ${i}"; classtype:attempted-recon; sid:${8_000_000 + i}; rev:1;)`,
      ).join('\n'),
    );
    const groups = await console_.ok<{ data: { id: number }[] }>('GET', '/groups/');
    const policy = await console_.ok<{ id: number }>('POST', '/policies/', {
      name: 'Fleet',
      group_ids: groups.data.map((g) => g.id),
    });
    const first = await console_.ok<{ id: number }>('POST', '/devices/', {
      name: 'fleet-1',
      password: PASSWORD,
      policy_id: policy.id,
    });
    await server.stop();
    const cheapHash = await argon2.hash(PASSWORD, {
      type: argon2.argon2id,
      memoryCost: 1024,
      timeCost: 1,
    });
    await database.exec(COPY_DEVICES, [first.id, size, cheapHash]);

    server = await start();
    await sleep(3000);
    const idle = rssKiB(server.child.pid);

    await writeFile(path.join(dir, 'password'), PASSWORD);
    // Spread so that the sign-ins (a cheap hash each, see COPY_DEVICES) do not all come at once.
    const spreadSeconds = Math.max(2, Math.ceil(size / SIGN_INS_PER_SECOND));
    for (let offset = 0; offset < size; offset += DEVICES_PER_PROCESS) {
      const count = Math.min(DEVICES_PER_PROCESS, size - offset);
      const name = `${kind}-${size}-fleet-${offset}`;
      const log = path.join(dir, `${name}.log`);
      const fleet = agentProcess(
        [
          'fleet',
          '--server',
          server.baseUrl,
          '--device-id',
          String(first.id + offset),
          '--count',
          String(count),
          '--password-file',
          path.join(dir, 'password'),
          '--output-dir',
          path.join(dir, `${name}-out`),
          '--state-dir',
          path.join(dir, `${name}-state`),
          '--start-spread',
          String(spreadSeconds),
          '--log-level',
          'error',
        ],
        log,
      );
      fleet.start();
      fleets.push({ process: fleet, log });
    }
    const started = performance.now();
    const deadline = started + (spreadSeconds + 300) * 1000;
    let online = 0;
    while (online < size && performance.now() < deadline) {
      await sleep(2000);
      online = fleets.reduce((sum, f) => sum + fleetStatus(f.log).push, 0);
    }
    const onlineSeconds = (performance.now() - started) / 1000;
    if (online < size) console.log(`[${kind} ${size}] only ${online} devices came online`);

    const before = fleets.map((f) => fleetStatus(f.log));
    const windowStart = performance.now();
    const samples: number[] = [];
    while (performance.now() - windowStart < WINDOW_SECONDS * 1000) {
      await sleep(SAMPLE_EVERY_MS);
      samples.push(rssKiB(server.child.pid));
    }
    const seconds = (performance.now() - windowStart) / 1000;
    const after = fleets.map((f) => fleetStatus(f.log));
    const delta = (key: 'heartbeats' | 'errors' | 'alerts') =>
      after.reduce((sum, s, i) => sum + s[key] - (before[i]?.[key] ?? 0), 0) / seconds;
    const sorted = [...samples].sort((a, b) => a - b);
    return {
      idle,
      median: sorted[Math.floor(sorted.length / 2)] ?? NaN,
      max: sorted.at(-1) ?? NaN,
      onlineSeconds,
      online,
      heartbeatsPerSecond: delta('heartbeats'),
      errorsPerSecond: delta('errors'),
      alertsPerSecond: delta('alerts'),
    };
  } finally {
    for (const fleet of fleets) await fleet.process.stop();
    await server?.stop();
    await database.drop();
  }
}

const dir = await mkdtemp(path.join(tmpdir(), 'palisade-fleet-memory-'));
const rows: string[] = [];
try {
  for (const kind of DBS) {
    if (kind === 'postgres') {
      const probe = new pg.Client({ connectionString: ADMIN_URL });
      const reachable = await probe.connect().then(
        () => true,
        (error: unknown) => {
          console.log(
            `[postgres] not run: ${error instanceof Error ? error.message : String(error)}`,
          );
          return false;
        },
      );
      await probe.end().catch(() => undefined);
      if (!reachable) continue;
    }
    for (const size of SIZES) {
      const f = await measure(kind, size, dir);
      const perDevice = (f.median - f.idle) / size;
      const row =
        `| ${kind === 'pglite' ? 'embedded' : 'PostgreSQL'} | ${size.toLocaleString('en-US')} ` +
        `| ${mb(f.idle)} | ${mb(f.median)} | ${mb(f.max)} | ${perDevice.toFixed(0)} KiB ` +
        `| ${f.heartbeatsPerSecond.toFixed(1)} | ${f.errorsPerSecond.toFixed(1)} | ${f.alertsPerSecond.toFixed(0)} |`;
      console.log(
        `${row}  (${f.online} online after ${f.onlineSeconds.toFixed(0)} s, ${WINDOW_SECONDS} s window)`,
      );
      rows.push(row);
    }
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
console.log(
  `\nServer RSS with a connected fleet (built server as npm start runs it; samples every ` +
    `${SAMPLE_EVERY_MS / 1000} s over ${WINDOW_SECONDS} s)`,
);
console.log(
  '| Database | Devices | Idle, devices stored | Fleet online, median | Max | Per device above idle | Heartbeats/s | Failed heartbeats/s | Alerts/s generated |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
