import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, ADMIN_EMAIL, ADMIN_PASSWORD, signIn, startTestServer } from '../../test/harness.js';
import type { TestServer } from '../../test/harness.js';
import {
  DROP_ALL_POLICIES,
  LOOPBACK_AND_REPLIES,
  MANAGEMENT_RULE,
  deviceReachingServer,
  signInNewOperator,
} from '../../test/fixtures.js';

type Headers = { authorization: string };

const POLICIES = DROP_ALL_POLICIES;
const SAFE = [...LOOPBACK_AND_REPLIES, MANAGEMENT_RULE];

describe('a ruleset rollback is a firewall change', () => {
  let server: TestServer;
  let admin: Headers;
  let operator: Headers;
  const call = (method: 'POST' | 'PUT' | 'GET', url: string, payload?: object, headers = admin) =>
    api(server.app, { method, url, headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL: 'https://10.0.0.9:9443' });
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    operator = await signInNewOperator(server.app, admin);
  }, 120_000);
  afterAll(() => server.close());

  it('refuses a rollback to a version that would cut a device off, unless overridden', async () => {
    // Version 1 drops everything; nothing used it then, so nothing checked it.
    const created = await call('POST', '/fwruleset/', {
      name: 'Edge',
      policies: POLICIES,
      rules: [],
    });
    const id = created.json<{ id: number }>().id;
    expect(
      (await call('PUT', `/fwruleset/${id}`, { name: 'Edge', policies: POLICIES, rules: SAFE }))
        .statusCode,
    ).toBe(200);
    const device = await deviceReachingServer(server.app, admin, 'router-1');
    expect((await call('PUT', `/devices/${device}`, { firewall_id: id })).statusCode).toBe(200);

    const refused = await call('POST', `/fwruleset/${id}/rollback`, { version: 1 }, operator);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'lockout' });
    expect(refused.json<{ msg: string }>().msg).toContain('router-1 would lose');
    const versions = await call('GET', `/fwruleset/${id}/versions`);
    expect(versions.json<{ recordsTotal: number }>().recordsTotal).toBe(2);

    const byOperator = await call(
      'POST',
      `/fwruleset/${id}/rollback`,
      { version: 1, override_lockout: true },
      operator,
    );
    expect(byOperator.json()).toMatchObject({ code: 'validation_failed' });
    const overridden = await call('POST', `/fwruleset/${id}/rollback`, {
      version: 1,
      override_lockout: true,
    });
    expect(overridden.statusCode).toBe(200);
    expect(overridden.json()).toMatchObject({ version: 3, changed: true, device_count: 1 });
  });
});
