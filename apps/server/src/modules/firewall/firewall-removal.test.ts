// A device Palisade managed and no longer does: unassigning its ruleset sends the script that
// removes table inet palisade, removing its last route sends the cleanup of proto 250 routes, and
// each moves the config version. A device never managed still gets nothing.

import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

const run = promisify(execFile);
type Headers = { authorization: string };
interface Config {
  config_version: number;
  nftables: string | null;
  routes: string | null;
}

const PASSWORD = 'device-secret-1234';
const REMOVAL = ['add table inet palisade', 'delete table inet palisade'];
const ROUTE = { address: '10.20.0.0/16', gateway: '10.0.0.1', metric: 10, interface: 'eth1' };

/** The real nft checks a script without applying it. */
async function nftCheck(script: string): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-nft-'));
  try {
    const file = path.join(dir, 'check.nft');
    await writeFile(file, script);
    await run('nft', ['-c', '-f', file]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The script's commands, without comments and blank lines. */
const commands = (script: string | null) =>
  (script ?? '').split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));

describe('a device Palisade no longer manages', () => {
  let server: TestServer;
  let admin: Headers;
  let rulesetId: number;
  let deviceId: number;
  let neverId: number;

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    api(server.app, {
      method,
      url,
      headers: admin,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const preview = async (id = deviceId) =>
    (await call('GET', `/devices/${id}/firewall`)).json<Config>();
  /** What the agent pulls, as the agent pulls it. */
  const bundle = async (id = deviceId) => {
    const login = await api(server.app, {
      method: 'POST',
      url: '/agent/login',
      payload: { device_id: id, password: PASSWORD, protocol: 1 },
    });
    const token = login.json<{ access_token: string }>().access_token;
    const answer = await api(server.app, {
      method: 'GET',
      url: '/agent/bundle',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(answer.statusCode).toBe(200);
    return answer.json<Config>();
  };
  const network = (routes: (typeof ROUTE)[]) =>
    call('PUT', `/devices/${deviceId}/network`, {
      l3_mode: true,
      routes,
      source_nat: [],
      port_forwards: [],
    });

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    rulesetId = (
      await call('POST', '/fwruleset/', {
        name: 'Edge',
        policies: { input: 'drop', forward: 'drop', output: 'accept' },
        rules: [{ chain: 'input', action: 'accept', states: ['established', 'related'] }],
      })
    ).json<{ id: number }>().id;
    const create = async (name: string) =>
      (await call('POST', '/devices/', { name, password: PASSWORD })).json<{ id: number }>().id;
    deviceId = await create('edge-1');
    neverId = await create('sensor-1');
  });
  afterAll(() => server.close());

  it('a device never managed gets no firewall script and no routes', async () => {
    expect(await preview(neverId)).toMatchObject({ nftables: null, routes: null });
    expect(await bundle(neverId)).toMatchObject({ nftables: null, routes: null });
  });

  it('unassigning the ruleset sends the removal of table inet palisade, in a new config version', async () => {
    await call('PUT', `/devices/${deviceId}`, { firewall_id: rulesetId });
    const assigned = await preview();
    expect(assigned.nftables).toContain('table inet palisade {');

    const unassigned = await call('PUT', `/devices/${deviceId}`, { firewall_id: null });
    expect(unassigned.statusCode).toBe(200);
    const removed = await preview();
    expect(removed.config_version).toBe(assigned.config_version + 1);
    expect(commands(removed.nftables)).toEqual(REMOVAL);
    await nftCheck(removed.nftables ?? '');
    expect(await bundle()).toMatchObject({
      config_version: removed.config_version,
      nftables: removed.nftables,
    });

    // Stable: another write that changes nothing keeps the version and the removal script.
    await call('PUT', `/devices/${deviceId}`, { firewall_id: null });
    expect(await preview()).toEqual(removed);
  });

  it('removing the last route sends the cleanup of Palisade routes, in a new config version', async () => {
    expect((await network([ROUTE])).statusCode).toBe(200);
    const routed = await preview();
    expect(routed.routes).toContain('ip -4 route replace 10.20.0.0/16 via 10.0.0.1');

    expect((await network([])).statusCode).toBe(200);
    const cleaned = await preview();
    expect(cleaned.config_version).toBe(routed.config_version + 1);
    expect(cleaned.routes).not.toContain('route replace');
    expect(cleaned.routes).toContain('ip -4 route show proto 250');
    expect(cleaned.routes).toContain('ip -6 route show proto 250');
    expect(commands(cleaned.nftables)).toEqual(REMOVAL);
    expect(await bundle()).toMatchObject({
      config_version: cleaned.config_version,
      routes: cleaned.routes,
    });
  });

  it('assigning a ruleset again sends the whole table again', async () => {
    const before = await preview();
    await call('PUT', `/devices/${deviceId}`, { firewall_id: rulesetId });
    const after = await preview();
    expect(after.config_version).toBe(before.config_version + 1);
    expect(after.nftables).toContain('table inet palisade {');
    expect(await preview(neverId)).toMatchObject({ nftables: null, routes: null });
  });
});
