import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAgentRelease } from '../../test/agent-release.js';
import { ANSWERS } from '../../test/agent-0.1.0/schemas.js';
import { policyFromRules } from '../../test/fixtures.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

/** One request of the recorded 0.1.0 agent (test/agent-0.1.0/requests.json). */
interface Recorded {
  name: string;
  method: 'GET' | 'POST';
  url: string;
  bearer?: boolean;
  headers: Record<string, string>;
  body?: unknown;
  /** The 0.1.0 schema its answer must pass, a status it must have, or null: any 2xx. */
  answer: keyof typeof ANSWERS | 304 | null;
}

const PASSWORD = 'compat-device-secret';
const RULES =
  'alert tcp any any -> $HOME_NET 22 (msg:"COMPAT SSH from outside"; sid:7100001; rev:1;)\n';

/** The recorded body with the $NAMES the test knows by now filled in (numbers stay numbers). */
function fill(value: unknown, known: Record<string, string | number>): unknown {
  if (typeof value === 'string' && value.startsWith('$')) return known[value.slice(1)] ?? value;
  if (Array.isArray(value)) return value.map((item) => fill(item, known));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, known)]));
  }
  return value;
}

describe('an agent one version older (0.1.0) against this server', () => {
  let server: TestServer;
  let admin: { authorization: string };
  let deviceId: number;
  let recorded: Recorded[];

  beforeAll(async () => {
    server = await startTestServer();
    // The server carries 0.2.0: the old agent is outdated and may be asked to upgrade.
    await writeAgentRelease(path.join(server.dataDir, 'agent-release'), '0.2.0');
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const policy = await policyFromRules(server.app, admin, 'compat.rules', RULES, 'Compat');
    const created = await api(server.app, {
      method: 'POST',
      url: '/devices/',
      headers: admin,
      payload: { name: 'old agent', password: PASSWORD, policy_id: policy },
    });
    deviceId = created.json<{ id: number }>().id;
    const fixture = new URL('../../test/agent-0.1.0/requests.json', import.meta.url);
    recorded = (JSON.parse(await readFile(fixture, 'utf8')) as { requests: Recorded[] }).requests;
  });
  afterAll(() => server.close());

  it('answers each of its requests as its own schemas expect, and the device works', async () => {
    const known: Record<string, string | number> = { DEVICE_ID: deviceId, PASSWORD };
    let token = '';
    for (const request of recorded) {
      if (request.name === 'heartbeat after applying') {
        // An upgrade asked of it rides in the answers: the old agent must not trip on it.
        const asked = await api(server.app, {
          method: 'POST',
          url: '/devices/upgrade',
          headers: admin,
          payload: { ids: [deviceId] },
        });
        expect(asked.json()).toEqual({ requested: 1, version: '0.2.0' });
      }
      const headers = fill(request.headers, known) as Record<string, string>;
      const response = await server.app.inject({
        method: request.method,
        url: request.url,
        headers: request.bearer ? { ...headers, authorization: `Bearer ${token}` } : headers,
        ...(request.body === undefined
          ? {}
          : { payload: JSON.stringify(fill(request.body, known)) }),
      });
      const what = `${request.name}: ${response.statusCode} ${response.body.slice(0, 300)}`;
      if (request.answer === 304) {
        expect(response.statusCode, what).toBe(304);
        continue;
      }
      expect(response.statusCode, what).toBe(200);
      if (request.answer === null) continue;
      const parsed = ANSWERS[request.answer].safeParse(response.json());
      expect(parsed.error?.issues ?? [], what).toEqual([]);
      const answer = parsed.data as Record<string, unknown>;
      if (request.name === 'login') token = String(answer['access_token']);
      if (request.name === 'bundle') {
        known['CONFIG_VERSION'] = Number(answer['config_version']);
        known['POLICY_VERSION'] = Number(answer['policy_version']);
        known['ETAG'] = String(response.headers['etag']);
        expect(answer['rules']).toBe(RULES);
      }
      if (request.name === 'heartbeat after applying') {
        expect(response.json()).toMatchObject({ pull: false, upgrade: { version: '0.2.0' } });
      }
      if (request.name === 'alerts') expect(answer).toEqual({ ack: 1, rejected: [] });
      if (request.name === 'logs') expect(answer).toEqual({ ack: 1 });
    }

    const view = (path: string) => api(server.app, { method: 'GET', url: path, headers: admin });
    const device = (await view(`/devices/${deviceId}`)).json<Record<string, unknown>>();
    expect(device).toMatchObject({
      online: true,
      update_pending: false,
      agent_version: '0.1.0',
      agent_outdated: true,
      last_error: null,
      // It cannot act on the request: it stands until the agent is reinstalled or upgraded.
      upgrade: { version: '0.2.0' },
      // It reports no Suricata stats: its health is unknown, not degraded.
      sensor: null,
      health: { status: 'unknown', reasons: [] },
    });
    const alerts = (await view(`/devicelogsnort/${deviceId}`)).json<{
      data: { sid: number; msg: string }[];
    }>();
    expect(alerts.data).toMatchObject([{ sid: 7100001, msg: 'COMPAT SSH from outside' }]);
    const logs = (await view(`/devicelog/${deviceId}`)).json<{ data: { msg: string }[] }>();
    expect(logs.data.map((line) => line.msg).sort()).toEqual(['agent started', 'bundle applied']);
  });
});
