import type { DeploymentDetail, PendingDeployments } from '@palisade/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { DROP_ALL_POLICIES, LOOPBACK_AND_REPLIES, signInNewOperator } from '../../test/fixtures.js';

type Headers = { authorization: string };

// The agents report no endpoint: they are checked against PUBLIC_URL's 10.0.0.9:9443.
const POLICIES = DROP_ALL_POLICIES;
const SAFE = LOOPBACK_AND_REPLIES;
const MANAGEMENT = {
  chain: 'output',
  action: 'accept',
  protocol: 'tcp',
  destination: '10.0.0.9',
  destination_ports: '9443',
};

describe('the lock-out check of a staged deploy', () => {
  let server: TestServer;
  let admin: Headers;
  let operator: Headers;
  let rulesetId: number;

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers = admin) =>
    api(server.app, { method, url, headers, ...(payload ? { payload } : {}) });
  const pendingIds = async () =>
    (await call('GET', '/deployments/pending'))
      .json<PendingDeployments>()
      .data.filter((row) => row.config_changed)
      .map((row) => row.device_name);

  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL: 'https://10.0.0.9:9443' });
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    operator = await signInNewOperator(server.app, admin);
    const ruleset = await call('POST', '/fwruleset/', {
      name: 'Edge',
      policies: POLICIES,
      rules: [...SAFE, MANAGEMENT],
    });
    expect(ruleset.statusCode).toBe(201);
    rulesetId = ruleset.json<{ id: number }>().id;
    for (const name of ['router-1', 'router-2']) {
      const device = await call('POST', '/devices/', {
        name,
        password: 'device-secret-1234',
        firewall_id: rulesetId,
      });
      expect(device.statusCode).toBe(201);
    }
    const staged = await call('PUT', '/organization/settings', { deploy_mode: 'staged' });
    expect(staged.statusCode).toBe(200);
    // Saved with an Administrator's override: staged, it reaches no device yet.
    const cut = await call('PUT', `/fwruleset/${rulesetId}`, {
      name: 'Edge',
      policies: POLICIES,
      rules: SAFE,
      override_lockout: true,
    });
    expect(cut.statusCode).toBe(200);
  }, 120_000);
  afterAll(() => server.close());

  it('refuses a canary deploy that would cut a device off, naming device and rule', async () => {
    expect(await pendingIds()).toEqual(['router-1', 'router-2']);
    const devices = (await call('GET', '/deployments/pending'))
      .json<PendingDeployments>()
      .data.map((row) => row.device_id);
    const refused = await call('POST', '/deployments/', {
      all: true,
      canary: { device_ids: [devices[0]] },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'lockout',
      msg:
        'router-1 would lose its connection to the server (10.0.0.9:9443/tcp): the output policy ' +
        'drops new tcp to 10.0.0.9:9443: add an output rule accepting tcp to 10.0.0.9 port 9443, ' +
        'or an output policy of accept',
    });
    // Nothing moved: no deployment, both devices still pending.
    const list = await call('GET', '/deployments/');
    expect(list.json<{ recordsTotal: number }>().recordsTotal).toBe(0);
    expect(await pendingIds()).toEqual(['router-1', 'router-2']);

    // The rest of a canary is checked with it: deploying router-2 alone is refused too.
    const rest = await call('POST', '/deployments/', { device_ids: [devices[1]] });
    expect(rest.statusCode).toBe(422);
    expect(rest.json<{ msg: string }>().msg).toMatch(/^router-2 would lose its connection/);
  });

  it('lets only an Administrator override it, and records the override', async () => {
    const byOperator = await call(
      'POST',
      '/deployments/',
      { all: true, override_lockout: true },
      operator,
    );
    expect(byOperator.statusCode).toBe(422);
    expect(byOperator.json()).toMatchObject({ code: 'validation_failed' });
    expect(await pendingIds()).toEqual(['router-1', 'router-2']);

    const overridden = await call('POST', '/deployments/', { all: true, override_lockout: true });
    expect(overridden.statusCode).toBe(201);
    const deployment = overridden.json<DeploymentDetail>();
    expect(deployment).toMatchObject({ status: 'deployed', device_count: 2 });
    expect(await pendingIds()).toEqual([]);
    const audit = await call('GET', '/audit/?action=lockout_override&object_type=deployment');
    const records = audit.json<{
      data: { object_id: string; after: { devices: { device: string; message: string }[] } }[];
    }>().data;
    expect(records.map((record) => record.object_id)).toEqual([String(deployment.id)]);
    expect(records[0]?.after.devices.map((entry) => entry.device)).toEqual(['router-1']);
    expect(records[0]?.after.devices[0]?.message).toContain(
      'the output policy drops new tcp to 10.0.0.9:9443',
    );
  });

  describe('routes, against what the device was last deployed', () => {
    const network = (...routes: object[]) => ({
      l3_mode: true,
      routes,
      source_nat: [],
      port_forwards: [],
    });
    const LAN = { address: '172.16.0.0/12', gateway: '192.0.2.9', interface: 'lan' };
    const DEFAULT = { address: 'default', gateway: '192.0.2.1', interface: 'wan' };
    const NEAR = { address: '10.0.0.0/24', gateway: '192.0.2.7', interface: 'lan' };
    let routerId: number;

    const save = (body: object) => call('PUT', `/devices/${routerId}/network`, body);
    const deployRouter = (extra: object = {}) =>
      call('POST', '/deployments/', { device_ids: [routerId], ...extra });

    it('refuses a deploy whose routes were let through at save by an override', async () => {
      const device = await call('POST', '/devices/', {
        name: 'router-3',
        password: 'device-secret-1234',
      });
      routerId = device.json<{ id: number }>().id;
      expect((await save(network(LAN))).statusCode).toBe(200);
      expect((await deployRouter()).statusCode).toBe(201);

      // Saved with an override (the default route would carry the connection), staged.
      const overridden = await save({ ...network(LAN, DEFAULT), override_lockout: true });
      expect(overridden.statusCode, overridden.body).toBe(200);
      const refused = await deployRouter();
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({
        code: 'lockout',
        msg:
          'router-3 may lose its connection to the server (10.0.0.9:9443/tcp): route 2 ' +
          "(default via 192.0.2.1 dev wan) would carry it instead of the device's own routes: " +
          'check its gateway and interface',
      });
    });

    it('checks a save against the deployed routes, not the save before', async () => {
      // Saved LAN, DEFAULT (with an override); deployed: LAN. Back to what is deployed needs no
      // override, though against the save before it would move the path to the server.
      const back = await save(network(LAN));
      expect(back.statusCode, back.body).toBe(200);
      // Away from what is deployed again: refused, though it is the save before.
      const away = await save(network(LAN, DEFAULT));
      expect(away.statusCode).toBe(422);
      expect(away.json<{ code: string }>().code).toBe('lockout');
    });

    it('checks two saves between deploys against the deployed routes, not each other', async () => {
      // The path moves in two saves: the deploy compares the last with what the device runs,
      // whatever was checked or overridden in between.
      expect((await save({ ...network(LAN, DEFAULT), override_lockout: true })).statusCode).toBe(
        200,
      );
      const second = await save({ ...network(LAN, DEFAULT, NEAR), override_lockout: true });
      expect(second.statusCode, second.body).toBe(200);
      const refused = await deployRouter();
      expect(refused.statusCode).toBe(422);
      expect(refused.json<{ msg: string }>().msg).toMatch(
        /^router-3 may lose its connection to the server \(10\.0\.0\.9:9443\/tcp\): route 3 \(10\.0\.0\.0\/24 via 192\.0\.2\.7 dev lan\)/,
      );
      // An Administrator may still send it, recorded as an override of the deployment.
      const sent = await deployRouter({ override_lockout: true });
      expect(sent.statusCode, sent.body).toBe(201);
      const audit = await call('GET', '/audit/?action=lockout_override&object_type=deployment');
      const devices = audit
        .json<{ data: { after: { devices: { device: string }[] } }[] }>()
        .data.flatMap((record) => record.after.devices.map((entry) => entry.device));
      expect(devices).toContain('router-3');
    });

    it('lets a deploy through when the routes end where they were deployed', async () => {
      // Deployed now: LAN, DEFAULT, NEAR. Saved away (an override) and back (none needed):
      // nothing moves.
      expect((await save({ ...network(LAN), override_lockout: true })).statusCode).toBe(200);
      const back = await save(network(LAN, DEFAULT, NEAR));
      expect(back.statusCode, back.body).toBe(200);
      expect((await call('GET', '/deployments/pending')).json<PendingDeployments>().data).toEqual(
        [],
      );
      // A harmless change on top is deployed without an override.
      const harmless = network(LAN, DEFAULT, NEAR, {
        address: '192.168.50.0/24',
        gateway: '192.0.2.9',
        interface: 'lan',
      });
      expect((await save(harmless)).statusCode).toBe(200);
      const deployed = await deployRouter();
      expect(deployed.statusCode, deployed.body).toBe(201);
    });
  });
});
