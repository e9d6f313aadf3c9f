import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, ADMIN_EMAIL, ADMIN_PASSWORD, signIn, startTestServer } from '../../test/harness.js';
import type { TestServer } from '../../test/harness.js';

type Headers = { authorization: string };

const SAFE = [
  { chain: 'input', action: 'accept', in_interface: 'lo', comment: 'loopback' },
  { chain: 'input', action: 'accept', states: ['established', 'related'], comment: 'replies' },
];
const POLICIES = { input: 'drop', forward: 'drop', output: 'drop' };
const MANAGEMENT = {
  chain: 'output',
  action: 'accept',
  protocol: 'tcp',
  destination: '10.0.0.5',
  destination_ports: '8443',
};
const OUT_SAFE = [
  { chain: 'output', action: 'accept', out_interface: 'lo' },
  { chain: 'output', action: 'accept', states: ['established', 'related'] },
];

describe('the lock-out check of firewall changes', () => {
  let server: TestServer;
  let admin: Headers;
  let operator: Headers;
  let rulesetId: number;
  let deviceId: number;

  const call = (method: 'POST' | 'PUT' | 'GET', url: string, payload: object, headers = admin) =>
    api(server.app, { method, url, headers, payload });

  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL: 'https://10.0.0.9:9443' });
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    await call('POST', '/users/', {
      email: 'op@example.com',
      password: 'Operator#2026',
      role: 'Operator',
    });
    operator = await signIn(server.app, 'op@example.com', 'Operator#2026');
    const ruleset = await call('POST', '/fwruleset/', {
      name: 'Edge',
      policies: POLICIES,
      rules: [...SAFE, ...OUT_SAFE, MANAGEMENT],
    });
    expect(ruleset.statusCode).toBe(201);
    rulesetId = ruleset.json<{ id: number }>().id;
    const device = await call('POST', '/devices/', {
      name: 'router-1',
      password: 'device-secret-1234',
    });
    deviceId = device.json<{ id: number }>().id;
    const login = await api(server.app, {
      method: 'POST',
      url: '/agent/login',
      payload: { device_id: deviceId, password: 'device-secret-1234', protocol: 1 },
    });
    const agent = {
      authorization: `Bearer ${login.json<{ access_token: string }>().access_token}`,
    };
    // The agent reaches the server at 10.0.0.5:8443, not at PUBLIC_URL's address.
    const beat = await call(
      'POST',
      '/agent/heartbeat',
      {
        state: 'running',
        local: { config_version: null, policy_version: null },
        agent_version: '0.2.0',
        server_endpoint: { address: '10.0.0.5', port: 8443 },
      },
      agent,
    );
    expect(beat.statusCode).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await server.close();
  });

  it('assigns a ruleset that keeps the agent connected (the reported endpoint)', async () => {
    const assigned = await call('PUT', `/devices/${deviceId}`, { firewall_id: rulesetId });
    expect(assigned.statusCode).toBe(200);
  });

  it('refuses a save that drops the management rule, naming device and rule', async () => {
    const before = (await call('GET', `/fwruleset/${rulesetId}`, {})).json<{ rules: unknown[] }>();
    const cut = { name: 'Edge', policies: POLICIES, rules: [...SAFE, ...OUT_SAFE] };
    const refused = await call('PUT', `/fwruleset/${rulesetId}`, cut);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'lockout',
      msg:
        'router-1 would lose its connection to the server (10.0.0.5:8443/tcp): the output policy ' +
        'drops new tcp to 10.0.0.5:8443: add an output rule accepting tcp to 10.0.0.5 port 8443, ' +
        'or an output policy of accept',
    });
    // Nothing changed.
    const after = (await call('GET', `/fwruleset/${rulesetId}`, {})).json<{ rules: unknown[] }>();
    expect(after.rules).toEqual(before.rules);

    const byOperator = await call(
      'PUT',
      `/fwruleset/${rulesetId}`,
      { ...cut, override_lockout: true },
      operator,
    );
    expect(byOperator.statusCode).toBe(422);
    expect(byOperator.json()).toMatchObject({ code: 'validation_failed' });
    const overridden = await call('PUT', `/fwruleset/${rulesetId}`, {
      ...cut,
      override_lockout: true,
    });
    expect(overridden.statusCode).toBe(200);
  });

  it('refuses an assignment that loses loopback and the replies', async () => {
    const bare = await call('POST', '/fwruleset/', { name: 'Bare', rules: [] });
    const id = bare.json<{ id: number }>().id;
    const refused = await call('PUT', `/devices/${deviceId}`, { firewall_id: id });
    expect(refused.statusCode).toBe(422);
    expect(refused.json<{ msg: string }>().msg).toBe(
      'router-1 would lose its connection to the server (10.0.0.5:8443/tcp): the input policy ' +
        'drops the replies from 10.0.0.5:8443: add an input rule accepting states established,related',
    );
    const device = (await call('GET', `/devices/${deviceId}`, {})).json<{ firewall_id: number }>();
    expect(device.firewall_id).toBe(rulesetId);
  });

  it("checks a device whose agent reports no endpoint against PUBLIC_URL's host and port", async () => {
    const old = await call('POST', '/devices/', {
      name: 'old-agent',
      password: 'device-secret-5678',
    });
    const oldId = old.json<{ id: number }>().id;
    // Edge (saved with the override) lacks the management rule for 10.0.0.9:9443 too.
    const refused = await call('PUT', `/devices/${oldId}`, { firewall_id: rulesetId });
    expect(refused.statusCode).toBe(422);
    expect(refused.json<{ msg: string }>().msg).toMatch(
      /^old-agent would lose its connection to the server \(10\.0\.0\.9:9443\/tcp\): /,
    );
  });
});
