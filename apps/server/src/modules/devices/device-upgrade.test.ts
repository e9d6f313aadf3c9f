import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  until,
  type TestServer,
} from '../../test/harness.js';

type Headers = { authorization: string };
interface DeviceBody {
  id: number;
  agent_version: string | null;
  agent_outdated: boolean;
  upgrade: { version: string; requested_at: string } | null;
  last_error: string | null;
}
interface Reply {
  pull: boolean;
  upgrade?: { id: number; version: string };
}

const PASSWORD = 'device-secret-1234';
const SERVED = '0.2.0';

describe('agent upgrades asked from the console', () => {
  let server: TestServer;
  let releaseDir: string;
  let admin: Headers;
  const agents = new Map<number, Headers>();

  const call = (method: 'GET' | 'POST', url: string, payload?: object, headers = admin) =>
    api(server.app, { method, url, headers, ...(payload ? { payload } : {}) });
  const view = async (id: number) => (await call('GET', `/devices/${id}`)).json<DeviceBody>();
  const upgrade = (payload: object) => call('POST', '/devices/upgrade', payload);

  async function device(name: string): Promise<number> {
    const created = await call('POST', '/devices/', { name, password: PASSWORD });
    const id = created.json<{ id: number }>().id;
    const login = await api(server.app, {
      method: 'POST',
      url: '/agent/login',
      payload: { device_id: id, password: PASSWORD, protocol: 1 },
    });
    agents.set(id, {
      authorization: `Bearer ${login.json<{ access_token: string }>().access_token}`,
    });
    return id;
  }

  async function beat(id: number, version: string, extra: object = {}): Promise<Reply> {
    const response = await api(server.app, {
      method: 'POST',
      url: '/agent/heartbeat',
      headers: agents.get(id),
      payload: {
        state: 'running',
        local: { config_version: null, policy_version: null },
        agent_version: version,
        ...extra,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Reply>();
  }

  /**
   * The order as the agent's heartbeats hear it, once they do: a request reaches beats answered
   * from remembered rows when the server hears its notification, which PostgreSQL delivers
   * after the request's commit (in the same turn on PGlite).
   */
  const orderHeard = (id: number, version: string, after = 0) =>
    until('the upgrade order in a heartbeat', async () => {
      const order = (await beat(id, version)).upgrade;
      return order !== undefined && order.id > after ? order : undefined;
    });

  beforeAll(async () => {
    releaseDir = await mkdtemp(path.join(os.tmpdir(), 'palisade-release-'));
    server = await startTestServer({ AGENT_RELEASE_DIR: releaseDir });
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await server.close();
    await rm(releaseDir, { recursive: true, force: true });
  });

  it('without an agent build, nothing is outdated and an upgrade is refused', async () => {
    const id = await device('no build');
    await beat(id, '0.1.0');
    expect(await view(id)).toMatchObject({ agent_outdated: false, upgrade: null });
    const refused = await upgrade({ all: true });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 'agent_release_missing' });
  });

  it('marks the devices whose agent is older than the build the server carries', async () => {
    // A build made while the server runs is found at the next look.
    await writeFile(
      path.join(releaseDir, 'manifest.json'),
      JSON.stringify({ version: SERVED, protocol: 1, files: [] }),
    );
    const older = await device('older');
    const current = await device('current');
    const newer = await device('newer');
    const odd = await device('odd version');
    const silent = await device('never seen');
    await beat(older, '0.1.9');
    await beat(current, SERVED);
    await beat(newer, '0.10.0');
    await beat(odd, 'nightly');
    const outdated: Record<number, boolean> = {};
    for (const id of [older, current, newer, odd, silent]) {
      outdated[id] = (await view(id)).agent_outdated;
    }
    expect(outdated).toEqual({
      [older]: true,
      [current]: false,
      [newer]: false,
      [odd]: false,
      [silent]: false,
    });
    const components = await call('GET', '/components');
    expect(components.json()).toMatchObject({
      packages: { agent: { installed: SERVED, registry: SERVED } },
    });
  });

  it('asks every outdated device, and the agent hears it in each heartbeat until it ends', async () => {
    const id = await device('fleet member');
    await beat(id, '0.1.0');
    await beat(id, '0.1.0');
    const asked = await upgrade({ all: true });
    expect(asked.statusCode, asked.body).toBe(200);
    // This device, the one from the first test, and "older".
    expect(asked.json()).toEqual({ requested: 3, version: SERVED });
    const shown = await view(id);
    expect(shown.upgrade?.version).toBe(SERVED);
    expect(Date.parse(shown.upgrade?.requested_at ?? '')).not.toBeNaN();

    const first = await orderHeard(id, '0.1.0');
    expect(first).toMatchObject({ version: SERVED });
    // The same beat again is routine: answered before its write, from the remembered row.
    const routine = await beat(id, '0.1.0');
    expect(routine.upgrade).toEqual(first);

    const done = await beat(id, SERVED, { upgrade: { id: first.id, status: 'done' } });
    expect(done.upgrade).toBeUndefined();
    expect(await view(id)).toMatchObject({
      agent_version: SERVED,
      agent_outdated: false,
      upgrade: null,
    });
    expect((await beat(id, SERVED)).upgrade).toBeUndefined();
  });

  it('ends the request when the agent simply reports the version', async () => {
    const id = await device('quiet upgrader');
    await beat(id, '0.1.0');
    expect((await upgrade({ ids: [id] })).json()).toEqual({ requested: 1, version: SERVED });
    expect((await orderHeard(id, '0.1.0')).version).toBe(SERVED);
    expect((await beat(id, SERVED)).upgrade).toBeUndefined();
    expect((await view(id)).upgrade).toBeNull();
  });

  it('a failure ends the request and becomes the last error; a stale report does not', async () => {
    const id = await device('failing upgrader');
    await beat(id, '0.1.0');
    await upgrade({ ids: [id] });
    const order = await orderHeard(id, '0.1.0');
    // Asked again: the first order's report is stale.
    await upgrade({ ids: [id] });
    const again = await orderHeard(id, '0.1.0', order.id);
    const stale = await beat(id, '0.1.0', {
      upgrade: { id: order.id, status: 'failed', error: 'old news' },
    });
    expect(stale.upgrade).toEqual(again);
    expect((await view(id)).last_error).toBeNull();

    const error = 'upgrade to 0.2.0 failed: it did not report in within 120 s; 0.1.0 restored';
    const failed = await beat(id, '0.1.0', {
      upgrade: { id: again?.id, status: 'failed', error },
      last_error: error,
    });
    expect(failed.upgrade).toBeUndefined();
    expect(await view(id)).toMatchObject({
      upgrade: null,
      last_error: error,
      agent_outdated: true,
    });
  });

  it('names a device it cannot find, asks none, and skips those already current', async () => {
    const id = await device('partly wrong');
    await beat(id, '0.1.0');
    const missing = await upgrade({ ids: [id, 999_999] });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'not_found', msg: 'Device 999999 not found' });
    expect((await view(id)).upgrade).toBeNull();

    const current = await device('already current');
    await beat(current, SERVED);
    expect((await upgrade({ ids: [current] })).json()).toEqual({ requested: 0, version: SERVED });
    expect((await view(current)).upgrade).toBeNull();
  });

  it('refuses malformed requests with a 422', async () => {
    for (const body of [{}, { ids: [] }, { all: false }, { ids: ['x'] }, { ids: [0] }]) {
      const response = await upgrade(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json()).toMatchObject({ code: 'validation_failed' });
    }
  });
});
