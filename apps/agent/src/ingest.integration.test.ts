// One bad event never blocks a sensor: Suricata writes NUL bytes of the traffic into eve.json
// (`\u0000` in http.url), and an alert may come without a timestamp. Server and agent run as
// processes, on the embedded database and on the PostgreSQL server: every valid alert is
// stored, the bad one is counted on the device, and the alerts written after it keep coming.

import type { Device, DeviceAlert } from '@palisade/contract';
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEveCorpus } from './testing/corpus.js';
import type { ConsoleClient, ServerProcess } from './testing/processes.js';
import { deviceAgent, waitFor, type SourceProcess, startConsole } from './testing/processes.js';
import { scratchDbName } from '../../../testing/scratch-db.mjs';

const POSTGRES_URL =
  process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DEVICE_PASSWORD = 'device-password-0001';

const corpusAlerts = loadEveCorpus()
  .flatMap((f) => f.lines)
  .map((line) => JSON.parse(line) as Record<string, unknown>)
  .filter((event) => event.event_type === 'alert');
const httpAlert = corpusAlerts.find(
  (event) => typeof (event['http'] as { url?: unknown } | undefined)?.url === 'string',
) as Record<string, unknown>;

/** eve.json lines as Suricata writes them, each alert with its own flow id. */
function lines(events: Record<string, unknown>[]): string {
  return events.map((event) => `${JSON.stringify(event)}\n`).join('');
}

/** A scratch database on the PostgreSQL server; its URL and how to drop it. */
async function scratchPostgres() {
  const name = scratchDbName('agent');
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

describe.each(['pglite', 'postgres'] as const)('alert ingest past bad events (%s)', (kind) => {
  let dir: string;
  let server: ServerProcess;
  let agent: SourceProcess;
  let admin: ConsoleClient;
  let device: Device;
  let eve: string;
  let dropDatabase: (() => Promise<void>) | undefined;
  let nextFlow = 1;
  const alerts = (count: number) =>
    Array.from({ length: count }, (_, i) => ({
      ...corpusAlerts[(nextFlow * 37 + i) % corpusAlerts.length],
      flow_id: nextFlow++,
    }));
  const stored = async () =>
    (await admin.ok<{ data: DeviceAlert[] }>('GET', `/devicelogsnort/${device.id}`)).data;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-agent-ingest-'));
    const env: Record<string, string> = {};
    if (kind === 'postgres') {
      const scratch = await scratchPostgres();
      env['DATABASE_URL'] = scratch.url;
      dropDatabase = scratch.drop;
    }
    ({ server, admin } = await startConsole(dir, env));
    device = await admin.ok<Device>('POST', '/devices/', {
      name: 'sensor-nul',
      password: DEVICE_PASSWORD,
    });
    eve = path.join(dir, 'eve.json');
    await writeFile(eve, '');
    await writeFile(path.join(dir, 'password'), `${DEVICE_PASSWORD}\n`);
    agent = deviceAgent(server.url, device.id, dir, [
      '--eve',
      eve,
      '--eve-start',
      'beginning',
      '--batch-delay',
      '200',
      '--heartbeat',
      '2',
    ]);
    agent.start();
  }, 180_000);

  afterAll(async () => {
    await agent?.stop();
    await server?.stop();
    await dropDatabase?.();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 120_000);

  it('stores every valid alert around a NUL, a lone surrogate and an alert without a time', async () => {
    const before = alerts(10);
    const nul = {
      ...httpAlert,
      flow_id: nextFlow++,
      http: { ...(httpAlert['http'] as object), url: '/login.php?user=\0admin' },
    };
    const surrogate = { ...httpAlert, flow_id: nextFlow++, app_proto: 'http\ud800' };
    const timeless: Record<string, unknown> = { ...httpAlert, flow_id: nextFlow++ };
    delete timeless['timestamp'];
    const after = alerts(10);
    // One write, so that all of them travel in one batch.
    await appendFile(eve, lines([...before, nul, timeless, surrogate, ...after]));

    const shown = await waitFor('22 alerts stored', async () => {
      const data = await stored();
      return data.length >= 22 ? data : undefined;
    });
    expect(shown.map((a) => a.flow_id).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
      [...before, nul, surrogate, ...after].map((a) => a.flow_id),
    );
    const rejected = await waitFor('the rejected alert counted on the device', async () => {
      const d = await admin.ok<Device>('GET', `/devices/${device.id}`);
      return d.alerts_rejected > 0 ? d.alerts_rejected : undefined;
    });
    expect(rejected).toBe(1);
    const nulAlert = shown.find((a) => a.flow_id === nul.flow_id) as DeviceAlert;
    const full = await admin.ok<{ event: { http: { url: string } } }>(
      'GET',
      `/alerts/${nulAlert.id}`,
    );
    expect(full.event.http.url).toBe('/login.php?user=\\u0000admin');
  }, 120_000);

  it('says so in its log and keeps shipping the alerts written later', async () => {
    const later = alerts(5);
    await appendFile(eve, lines(later));
    await waitFor('27 alerts stored', async () => (await stored()).length >= 27);
    expect((await stored()).map((a) => a.flow_id)).toEqual(
      expect.arrayContaining(later.map((a) => a.flow_id)),
    );
    const log = await waitFor('the rejection in the agent log', async () => {
      const { data } = await admin.ok<{ data: { level: string; msg: string }[] }>(
        'GET',
        `/devicelog/${device.id}`,
      );
      return data.find((l) => l.msg.startsWith('alerts rejected by the server'));
    });
    expect(log.level).toBe('warn');
    expect((await admin.ok<Device>('GET', `/devices/${device.id}`)).alerts_rejected).toBe(1);
  }, 120_000);
});
