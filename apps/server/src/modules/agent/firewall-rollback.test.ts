// An agent that took a firewall change back by itself (agent-protocol.md, "commit confirmed")
// reports it with its heartbeat: the device shows the reason as its last error, and the audit
// log records the rollback as the device's own action.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

const REASON = 'firewall change v2 rolled back: no contact with the server for 120 s';

describe("an agent's firewall rollback", () => {
  let server: TestServer;
  let admin: { authorization: string };
  let agent: { authorization: string };
  let deviceId: number;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const device = await api(server.app, {
      method: 'POST',
      url: '/devices/',
      headers: admin,
      payload: { name: 'edge-7', password: 'device-password-0009' },
    });
    deviceId = device.json<{ id: number }>().id;
    const login = await api(server.app, {
      method: 'POST',
      url: '/agent/login',
      payload: { device_id: deviceId, password: 'device-password-0009' },
    });
    agent = { authorization: `Bearer ${login.json<{ access_token: string }>().access_token}` };
  });
  afterAll(() => server.close());

  const beat = (extra: object = {}) =>
    api(server.app, {
      method: 'POST',
      url: '/agent/heartbeat',
      headers: agent,
      payload: {
        state: 'error',
        local: { config_version: 1, policy_version: 0 },
        agent_version: '0.3.0',
        last_error: REASON,
        ...extra,
      },
    });
  const rollbacks = () =>
    server.db.query<{
      actor_kind: string;
      actor_id: number;
      actor_name: string;
      object_type: string;
      object_id: string;
      before: unknown;
      after: unknown;
    }>(
      `SELECT actor_kind, actor_id, actor_name, object_type, object_id, before, after
         FROM audit_log WHERE action = 'rollback' ORDER BY id`,
    );

  it('is recorded as the device acting, and shown as its last error', async () => {
    const answer = await beat({ firewall_rollback: { config_version: 2, reason: REASON } });
    expect(answer.statusCode).toBe(200);
    expect(await rollbacks()).toEqual([
      {
        actor_kind: 'device',
        actor_id: deviceId,
        actor_name: 'edge-7',
        object_type: 'device',
        object_id: String(deviceId),
        before: { firewall_config_version: 2 },
        after: { reason: REASON },
      },
    ]);
    const device = await api(server.app, {
      method: 'GET',
      url: `/devices/${deviceId}`,
      headers: admin,
    });
    expect(device.json<{ last_error: string }>().last_error).toBe(REASON);
  });

  it('is not recorded again by the beats after it, which carry only the last error', async () => {
    expect((await beat()).statusCode).toBe(200);
    expect(await rollbacks()).toHaveLength(1);
  });
});
