import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

describe('organization deploy settings', () => {
  let server: TestServer;
  let admin: { authorization: string };
  let operator: { authorization: string };

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    await api(server.app, {
      method: 'POST',
      url: '/users/',
      headers: admin,
      payload: { email: 'op@example.com', password: 'Member#2026', role: 'Operator' },
    });
    operator = await signIn(server.app, 'op@example.com', 'Member#2026');
  });
  afterAll(() => server.close());

  const settings = (headers = admin) =>
    api(server.app, { method: 'GET', url: '/organization/settings', headers });
  const put = (payload: object, headers = admin) =>
    api(server.app, { method: 'PUT', url: '/organization/settings', headers, payload });

  it('applies every save at once until an Administrator stages them', async () => {
    expect((await settings()).json()).toEqual({
      deploy_mode: 'immediate',
      canary_wait_minutes: 15,
      canary_alert_factor: 3,
      canary_heartbeat_grace_seconds: 180,
    });
    const staged = await put({ deploy_mode: 'staged', canary_wait_minutes: 5 });
    expect(staged.statusCode).toBe(200);
    expect(staged.json()).toMatchObject({ deploy_mode: 'staged', canary_wait_minutes: 5 });
    expect((await settings()).json()).toMatchObject({
      deploy_mode: 'staged',
      canary_wait_minutes: 5,
    });
  });

  it('records what changed in the audit log, in the same transaction', async () => {
    await put({ canary_alert_factor: 2.5 });
    const [record] = await server.db.query<{
      action: string;
      object_type: string;
      before: unknown;
      after: unknown;
    }>(
      `SELECT action, object_type, before, after FROM audit_log
        WHERE object_type = 'organization' ORDER BY id DESC LIMIT 1`,
    );
    expect(record).toEqual({
      action: 'update',
      object_type: 'organization',
      before: { canary_alert_factor: 3 },
      after: { canary_alert_factor: 2.5 },
    });
  });

  it('is for Administrators only', async () => {
    expect((await settings(operator)).statusCode).toBe(403);
    expect((await put({ deploy_mode: 'immediate' }, operator)).statusCode).toBe(403);
  });

  it('refuses unknown fields and values out of range, naming them', async () => {
    const unknown = await put({ deploy_mode: 'later' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.body).toContain('deploy_mode');
    const short = await put({ canary_heartbeat_grace_seconds: 1 });
    expect(short.statusCode).toBe(422);
    expect(short.body).toContain('canary_heartbeat_grace_seconds');
  });
});
