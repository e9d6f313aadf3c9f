import { ENROLMENT_TOKEN_PATTERN } from '@palisade/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { signInOtherOrganization } from '../../test/fixtures.js';
import { ENROL_LIMIT } from './enrolment.service.js';

type Headers = { authorization: string };
const DEVICE_PASSWORD = 'device-secret-enrol-1';
const INVALID = 'enrolment_token_invalid';

describe('enrolment tokens', () => {
  let server: TestServer;
  let admin: Headers;
  let other: Headers;
  let nextAddress = 1;
  /** Each test enrols from its own address, so that one test's refusals do not limit another. */
  const freshAddress = () => `192.0.2.${nextAddress++}`;

  const asConsole = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    api(server.app, { method, url, headers: admin, ...(payload ? { payload } : {}) });

  async function newDevice(name: string): Promise<number> {
    const response = await asConsole('POST', '/devices/', { name, password: DEVICE_PASSWORD });
    expect(response.statusCode).toBe(201);
    return response.json<{ id: number }>().id;
  }

  async function issue(deviceId: number, payload: object = {}): Promise<string> {
    const response = await asConsole('POST', `/devices/${deviceId}/enrolment`, payload);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ token: string }>().token;
  }

  const enrol = (token: string, remoteAddress = '192.0.2.250') =>
    api(server.app, {
      method: 'POST',
      url: '/agent/enrol',
      remoteAddress,
      payload: { token, agent_version: '0.2.0', protocol: 1, hostname: 'sensor-1' },
    });

  const agentLogin = (deviceId: number, password: string) =>
    api(server.app, {
      method: 'POST',
      url: '/agent/login',
      payload: { device_id: deviceId, password, protocol: 1 },
    });

  const status = async (deviceId: number) =>
    (await asConsole('GET', `/devices/${deviceId}/enrolment`)).json<{
      status: string;
      expires_at: string | null;
      used_at: string | null;
    }>();

  const expectInvalid = (response: LightMyRequestResponse) => {
    expect(response.statusCode).toBe(401);
    const body = response.json<{ code: string; msg: string }>();
    expect(body.code).toBe(INVALID);
    expect(body.msg).toMatch(/issue a new one in the console/);
  };

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    other = await signInOtherOrganization(server.app);
  });
  afterAll(() => server.close());

  it('exchanges a token once for a new device password that replaces the old one', async () => {
    const deviceId = await newDevice('enrol sensor');
    expect(await status(deviceId)).toEqual({ status: 'none', expires_at: null, used_at: null });
    const oldLogin = await agentLogin(deviceId, DEVICE_PASSWORD);
    expect(oldLogin.statusCode).toBe(200);
    const oldToken = {
      authorization: `Bearer ${oldLogin.json<{ access_token: string }>().access_token}`,
    };

    const issued = await asConsole('POST', `/devices/${deviceId}/enrolment`, {});
    expect(issued.statusCode).toBe(201);
    const { token, expires_at, device_id } = issued.json<{
      token: string;
      expires_at: string;
      device_id: number;
    }>();
    expect(device_id).toBe(deviceId);
    expect(token).toMatch(ENROLMENT_TOKEN_PATTERN);
    const hoursLeft = (Date.parse(expires_at) - Date.now()) / 3_600_000;
    expect(hoursLeft).toBeGreaterThan(23);
    expect(hoursLeft).toBeLessThanOrEqual(24);
    expect((await status(deviceId)).status).toBe('active');
    expect(JSON.stringify(await status(deviceId))).not.toContain(token.slice(-43));

    const address = freshAddress();
    const enrolled = await enrol(token, address);
    expect(enrolled.statusCode, enrolled.body).toBe(200);
    const { password, device_name } = enrolled.json<{ password: string; device_name: string }>();
    expect(enrolled.json<{ device_id: number }>().device_id).toBe(deviceId);
    expect(device_name).toBe('enrol sensor');
    expect(password).toHaveLength(24);

    expect((await agentLogin(deviceId, password)).statusCode).toBe(200);
    expect((await agentLogin(deviceId, DEVICE_PASSWORD)).statusCode).toBe(401);
    const bundle = await api(server.app, {
      method: 'GET',
      url: '/agent/bundle',
      headers: oldToken,
    });
    expect(bundle.statusCode).toBe(401);

    const used = await status(deviceId);
    expect(used.status).toBe('used');
    expect(used.used_at).not.toBeNull();
    const [row] = await server.db.query<{ used_from: string; secret_hash: string }>(
      'SELECT used_from, secret_hash FROM enrolment_tokens WHERE device_id = $1',
      [deviceId],
    );
    expect(row?.used_from).toBe(address);
    expect(row?.secret_hash).toMatch(/^\$argon2id\$/);

    expectInvalid(await enrol(token, freshAddress()));
    expect((await agentLogin(deviceId, password)).statusCode).toBe(200);
  });

  it('lets exactly one of two enrolments with the same token through', async () => {
    const deviceId = await newDevice('enrol race');
    const token = await issue(deviceId);
    const answers = await Promise.all([enrol(token, freshAddress()), enrol(token, freshAddress())]);
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 401]);
    const winner = answers.find((a) => a.statusCode === 200);
    const loser = answers.find((a) => a.statusCode === 401);
    if (!winner || !loser) throw new Error('unreachable');
    expectInvalid(loser);
    const { password } = winner.json<{ password: string }>();
    expect((await agentLogin(deviceId, password)).statusCode).toBe(200);
  });

  it('refuses an expired token and says so in the status', async () => {
    const deviceId = await newDevice('enrol expired');
    const token = await issue(deviceId, { ttl_hours: 1 });
    const expires = (await status(deviceId)).expires_at ?? '';
    expect(Date.parse(expires) - Date.now()).toBeLessThanOrEqual(3_600_000);
    await server.db.query(
      "UPDATE enrolment_tokens SET expires_at = now() - interval '1 second' WHERE device_id = $1",
      [deviceId],
    );
    expect((await status(deviceId)).status).toBe('expired');
    expectInvalid(await enrol(token, freshAddress()));
    expect((await agentLogin(deviceId, DEVICE_PASSWORD)).statusCode).toBe(200);
  });

  it('revokes the earlier unused token when a new one is issued', async () => {
    const deviceId = await newDevice('enrol reissued');
    const first = await issue(deviceId);
    const second = await issue(deviceId);
    expectInvalid(await enrol(first, freshAddress()));
    expect((await enrol(second, freshAddress())).statusCode).toBe(200);
  });

  it('refuses a token whose device was deleted', async () => {
    const deviceId = await newDevice('enrol deleted');
    const token = await issue(deviceId);
    expect((await asConsole('DELETE', `/devices/${deviceId}`)).statusCode).toBe(200);
    expectInvalid(await enrol(token, freshAddress()));
  });

  it('refuses a token whose secret is wrong, and text that is no token', async () => {
    const deviceId = await newDevice('enrol forged');
    const token = await issue(deviceId);
    const forged = `${token.slice(0, -43)}${'A'.repeat(43)}`;
    const address = freshAddress();
    expectInvalid(await enrol(forged, address));
    expectInvalid(await enrol('not a token', address));
    expectInvalid(await enrol(`pse_99999999999999999_${'A'.repeat(43)}`, address));
    expect((await enrol(token, address)).statusCode).toBe(200);
  });

  it("answers another organization's administrator 404 for the device", async () => {
    const deviceId = await newDevice('enrol tenant');
    for (const method of ['GET', 'POST'] as const) {
      const response = await api(server.app, {
        method,
        url: `/devices/${deviceId}/enrolment`,
        headers: other,
        ...(method === 'POST' ? { payload: {} } : {}),
      });
      expect(response.statusCode).toBe(404);
      expect(response.json<{ code: string }>().code).toBe('not_found');
    }
    expect((await status(deviceId)).status).toBe('none');
  });

  it('checks the lifetime asked for', async () => {
    const deviceId = await newDevice('enrol lifetime');
    for (const ttl_hours of [0, 721, 1.5, '24']) {
      const response = await asConsole('POST', `/devices/${deviceId}/enrolment`, { ttl_hours });
      expect(response.statusCode, String(ttl_hours)).toBe(422);
    }
    const withoutBody = await api(server.app, {
      method: 'POST',
      url: `/devices/${deviceId}/enrolment`,
      headers: admin,
    });
    expect(withoutBody.statusCode, withoutBody.body).toBe(201);
    const longest = await asConsole('POST', `/devices/${deviceId}/enrolment`, { ttl_hours: 720 });
    expect(longest.statusCode).toBe(201);
  });

  it('limits failed enrolments per address, with Retry-After', async () => {
    const deviceId = await newDevice('enrol limited');
    const token = await issue(deviceId);
    const address = freshAddress();
    for (let i = 0; i < ENROL_LIMIT.perAddress; i++)
      expectInvalid(await enrol(`pse_1_${'B'.repeat(43)}`, address));
    const limited = await enrol(token, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json<{ code: string }>().code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The token was not spent: from another address it still works.
    expect((await enrol(token, freshAddress())).statusCode).toBe(200);
  });
});
