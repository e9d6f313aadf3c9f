import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, ADMIN_EMAIL, ADMIN_PASSWORD, signIn, startTestServer } from '../../test/harness.js';
import type { TestServer } from '../../test/harness.js';
import {
  DROP_ALL_POLICIES,
  MANAGEMENT_RULE,
  deviceReachingServer,
  signInNewOperator,
} from '../../test/fixtures.js';

type Headers = { authorization: string };

const SAFE = [
  { chain: 'input', action: 'accept', in_interface: 'lo', comment: 'loopback' },
  { chain: 'input', action: 'accept', states: ['established', 'related'], comment: 'replies' },
];
const POLICIES = DROP_ALL_POLICIES;
const MANAGEMENT = MANAGEMENT_RULE;
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
    operator = await signInNewOperator(server.app, admin);
    const ruleset = await call('POST', '/fwruleset/', {
      name: 'Edge',
      policies: POLICIES,
      rules: [...SAFE, ...OUT_SAFE, MANAGEMENT],
    });
    expect(ruleset.statusCode).toBe(201);
    rulesetId = ruleset.json<{ id: number }>().id;
    deviceId = await deviceReachingServer(server.app, admin, 'router-1');
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

  describe('routes: a change that moves the path to the server', () => {
    const network = (...routes: object[]) => ({
      l3_mode: true,
      routes,
      source_nat: [],
      port_forwards: [],
    });
    const LAN = { address: '172.16.0.0/12', gateway: '192.0.2.9', interface: 'lan' };
    const DEFAULT = { address: 'default', gateway: '192.0.2.1', interface: 'wan' };
    const stored = async () =>
      (await call('GET', `/devices/${deviceId}/network`, {})).json<{ routes: unknown[] }>();
    const overrides = async () =>
      (
        await server.db.query(
          `SELECT after FROM audit_log WHERE action = 'lockout_override' AND object_type = 'device_network'`,
        )
      ).length;

    it('saves routes that leave the server to the device (10.0.0.5 is not in 172.16/12)', async () => {
      const saved = await call('PUT', `/devices/${deviceId}/network`, network(LAN));
      expect(saved.statusCode, saved.body).toBe(200);
    });

    it('refuses a default route that would carry the connection, naming it; saves nothing', async () => {
      const refused = await call('PUT', `/devices/${deviceId}/network`, network(LAN, DEFAULT));
      expect(refused.statusCode).toBe(422);
      expect(refused.json<{ msg: string; code: string }>()).toMatchObject({
        code: 'lockout',
        msg:
          'router-1 may lose its connection to the server (10.0.0.5:8443/tcp): route 2 ' +
          "(default via 192.0.2.1 dev wan) would carry it instead of the device's own routes: " +
          'check its gateway and interface',
      });
      expect(refused.json<{ details: { field: string }[] }>().details[0]?.field).toBe('routes.1');
      expect((await stored()).routes).toHaveLength(1);

      // The preview shows it before Save, and refuses nothing.
      const preview = await call(
        'PUT',
        `/devices/${deviceId}/network/preview`,
        network(LAN, DEFAULT),
      );
      expect(preview.statusCode).toBe(200);
      expect(
        preview.json<{ lockout: { device_name: string; message: string }[] }>().lockout,
      ).toEqual([
        expect.objectContaining({
          device_name: 'router-1',
          message: refused.json<{ msg: string }>().msg,
        }),
      ]);
    });

    it('only an Administrator overrides it, and the override is audited', async () => {
      const body = { ...network(LAN, DEFAULT), override_lockout: true };
      const byOperator = await call('PUT', `/devices/${deviceId}/network`, body, operator);
      expect(byOperator.statusCode).toBe(422);
      expect(byOperator.json<{ msg: string }>().msg).toMatch(/only an Administrator/);
      const before = await overrides();
      const saved = await call('PUT', `/devices/${deviceId}/network`, body);
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).not.toHaveProperty('override_lockout');
      expect((await stored()).routes).toHaveLength(2);
      expect(await overrides()).toBe(before + 1);
    });

    it('taking the route away, or rolling back to before it, is checked too', async () => {
      const removed = await call('PUT', `/devices/${deviceId}/network`, network(LAN));
      expect(removed.statusCode).toBe(422);
      expect(removed.json<{ msg: string }>().msg).toMatch(
        /without the route default via 192\.0\.2\.1 dev wan the device's own routes would carry it again/,
      );
      const versions = (await call('GET', `/devices/${deviceId}/network/versions`, {})).json<{
        data: { version: number }[];
      }>().data;
      const first = Math.min(...versions.map((v) => v.version));
      const rollback = await call('POST', `/devices/${deviceId}/network/rollback`, {
        version: first,
      });
      expect(rollback.statusCode).toBe(422);
      expect(rollback.json<{ code: string }>().code).toBe('lockout');
    });
  });
});
