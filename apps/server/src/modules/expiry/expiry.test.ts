// Changes with an end date: what is past its expiry is removed by the job (as the server's
// audited "expire", the device's versions moving as after an edit), what is not yet due stays,
// and the console lists what expires in the next days, for its own organization only.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postFiles } from '../../test/corpus.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { signInOtherOrganization } from '../../test/fixtures.js';
import { createExpiryService } from './expiry.service.js';

type Headers = { authorization: string };
interface Item {
  kind: string;
  object_type: string;
  object_id: number;
  object_name: string;
  label: string;
  expires_at: string;
  reason: string | null;
}
interface PolicyBody {
  id: number;
  version: number;
  overrides: { rule_id: number; action: string; expires_at?: string; reason?: string }[];
  thresholds: { sid: number; expires_at?: string }[];
}
interface DeviceBody {
  config_version_remote: number;
  policy_version_remote?: number;
}

const RULES = [
  'alert tcp any any -> any 22 (msg:"SSH scan"; sid:5300001; rev:1;)',
  'alert tcp any any -> any 23 (msg:"Telnet"; sid:5300002; rev:1;)',
].join('\n');
const MINUTE = 60_000;
const DAY = 86_400_000;

describe('changes with an end date', () => {
  let server: TestServer;
  let admin: Headers;
  let policyId: number;
  let rulesetId: number;
  let deviceId: number;
  const ruleIds = new Map<number, number>();
  const now = Date.now();
  const past = new Date(now - MINUTE).toISOString();
  const soon = new Date(now + 3 * DAY).toISOString();
  const later = new Date(now + 30 * DAY).toISOString();

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Headers, payload?: object) =>
    api(server.app, { method, url, headers, ...(payload === undefined ? {} : { payload }) });
  const expiring = async (query = '', headers = admin) => {
    const response = await call('GET', `/expiring${query}`, headers);
    expect(response.statusCode).toBe(200);
    return response.json<{ data: Item[] }>().data;
  };
  const auditRows = () =>
    server.db.query<{
      actor_kind: string;
      actor_name: string;
      action: string;
      object_type: string;
      object_id: string;
      before: unknown;
    }>(
      `SELECT actor_kind, actor_name, action, object_type, object_id, before
         FROM audit_log WHERE action = 'expire' ORDER BY id`,
    );

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    await postFiles(server.app, '/rules/import', admin, [
      { name: 'expiry.rules', bytes: `${RULES}\n` },
    ]);
    const rules = (await call('GET', '/rules/?limit=100', admin)).json<{
      data: { id: number; sid: number }[];
    }>().data;
    for (const rule of rules) ruleIds.set(rule.sid, rule.id);
    const groups = (await call('GET', '/groups/?limit=999999', admin)).json<{
      data: { id: number; name: string }[];
    }>().data;
    const created = await call('POST', '/policies/', admin, {
      name: 'Perimeter',
      group_ids: groups.map((g) => g.id),
      overrides: [
        { rule_id: ruleIds.get(5300001), action: 'disable', expires_at: past, reason: 'INC-1' },
        { rule_id: ruleIds.get(5300002), action: 'drop', expires_at: soon, reason: 'INC-2' },
      ],
      thresholds: [
        { kind: 'suppress', sid: 5300002, track: 'by_src', ip: '10.0.0.5', expires_at: past },
        { kind: 'suppress', sid: 5300001, track: 'by_src', ip: '10.0.0.6' },
      ],
    });
    expect(created.statusCode).toBe(201);
    policyId = created.json<PolicyBody>().id;
    const ruleset = await call('POST', '/fwruleset/', admin, {
      name: 'Edge',
      policies: { input: 'accept', forward: 'accept', output: 'accept' },
      rules: [
        { chain: 'input', action: 'drop', protocol: 'tcp', destination_ports: '23' },
        {
          chain: 'input',
          action: 'drop',
          protocol: 'tcp',
          destination_ports: '2323',
          expires_at: past,
          reason: 'scan from a partner',
        },
        {
          chain: 'input',
          action: 'drop',
          protocol: 'tcp',
          destination_ports: '25',
          expires_at: later,
        },
      ],
    });
    expect(ruleset.statusCode).toBe(201);
    rulesetId = ruleset.json<{ id: number }>().id;
    const device = await call('POST', '/devices/', admin, {
      name: 'sensor-1',
      password: 'device-password-0007',
      policy_id: policyId,
      firewall_id: rulesetId,
    });
    expect(device.statusCode).toBe(201);
    deviceId = device.json<{ id: number }>().id;
  });
  afterAll(() => server.close());

  it('keeps the end date and reason with each item', async () => {
    const policy = (await call('GET', `/policies/${policyId}`, admin)).json<PolicyBody>();
    expect(policy.overrides).toContainEqual({
      rule_id: ruleIds.get(5300002),
      action: 'drop',
      expires_at: soon,
      reason: 'INC-2',
    });
    expect(policy.thresholds[0]?.expires_at).toBe(past);
  });

  it('lists what expires within the days asked, and what is already due', async () => {
    const week = await expiring('?days=7');
    // By expiry, then by the name of what holds the item.
    expect(week.map((i) => [i.kind, i.label, i.reason])).toEqual([
      ['firewall_rule', '#2 input drop tcp 2323', 'scan from a partner'],
      ['override', '1:5300001 disable', 'INC-1'],
      ['threshold', 'suppress 1:5300002', null],
      ['override', '1:5300002 drop', 'INC-2'],
    ]);
    expect(week[0]).toMatchObject({ object_type: 'firewall_ruleset', object_id: rulesetId });
    expect(week[1]).toMatchObject({ object_type: 'policy', object_name: 'Perimeter' });
    expect(await expiring()).toHaveLength(4); // 7 days by default
    expect((await expiring('?days=60')).map((i) => i.label)).toContain('#3 input drop tcp 25');
  });

  it('refuses a bad number of days, and a caller not signed in', async () => {
    const zero = await call('GET', '/expiring?days=0', admin);
    expect(zero.statusCode).toBe(422);
    expect(zero.body).toContain('days');
    expect((await call('GET', '/expiring?days=seven', admin)).statusCode).toBe(422);
    expect((await api(server.app, { method: 'GET', url: '/expiring' })).statusCode).toBe(401);
  });

  it('shows a Viewer the list, and another organization none of it', async () => {
    await call('POST', '/users/', admin, {
      email: 'viewer@example.com',
      password: 'Viewer#2026',
      role: 'Viewer',
    });
    const viewer = await signIn(server.app, 'viewer@example.com', 'Viewer#2026');
    expect(await expiring('?days=7', viewer)).toHaveLength(4);
    const other = await signInOtherOrganization(server.app);
    expect(await expiring('?days=365', other)).toEqual([]);
  });

  it('removes what is due in one run, audited as the server, and the device hears of it', async () => {
    const before = (await call('GET', `/devices/${deviceId}`, admin)).json<DeviceBody>();
    const policyBefore = (await call('GET', `/policies/${policyId}`, admin)).json<PolicyBody>();

    expect(await createExpiryService(server.db).expire()).toBe(3);

    const policy = (await call('GET', `/policies/${policyId}`, admin)).json<PolicyBody>();
    expect(policy.overrides.map((o) => o.rule_id)).toEqual([ruleIds.get(5300002)]);
    expect(policy.thresholds.map((t) => t.sid)).toEqual([5300001]);
    expect(policy.version).toBe(policyBefore.version + 1);
    const rendered = (await call('GET', `/policies/${policyId}/render`, admin)).json<{
      rules: string;
    }>();
    expect(rendered.rules).toContain('sid:5300001'); // no longer disabled
    const ruleset = (await call('GET', `/fwruleset/${rulesetId}`, admin)).json<{
      rules: { destination_ports: string }[];
    }>();
    expect(ruleset.rules.map((r) => r.destination_ports)).toEqual(['23', '25']);
    const after = (await call('GET', `/devices/${deviceId}`, admin)).json<DeviceBody>();
    expect(after.config_version_remote).toBeGreaterThan(before.config_version_remote);

    expect(await auditRows()).toEqual([
      {
        actor_kind: 'server',
        actor_name: 'expiry',
        action: 'expire',
        object_type: 'policy',
        object_id: String(policyId),
        before: expect.objectContaining({
          kind: 'override',
          item: '1:5300001 disable',
          reason: 'INC-1',
        }) as unknown,
      },
      {
        actor_kind: 'server',
        actor_name: 'expiry',
        action: 'expire',
        object_type: 'policy',
        object_id: String(policyId),
        before: expect.objectContaining({
          kind: 'threshold',
          item: 'suppress 1:5300002',
        }) as unknown,
      },
      {
        actor_kind: 'server',
        actor_name: 'expiry',
        action: 'expire',
        object_type: 'firewall_ruleset',
        object_id: String(rulesetId),
        before: expect.objectContaining({
          kind: 'firewall_rule',
          reason: 'scan from a partner',
        }) as unknown,
      },
    ]);

    // Both keep their history: the new versions name the expiry job.
    const versions = await server.db.query<{ kind: string; object_id: number }>(
      `SELECT kind, object_id FROM object_versions WHERE actor_name = 'expiry' ORDER BY kind`,
    );
    expect(versions).toEqual([
      { kind: 'firewall_ruleset', object_id: rulesetId },
      { kind: 'policy', object_id: policyId },
    ]);

    // Nothing more is due: a second run removes nothing and records nothing.
    expect(await createExpiryService(server.db).expire()).toBe(0);
    expect(await auditRows()).toHaveLength(3);
    expect((await expiring('?days=7')).map((i) => i.label)).toEqual(['1:5300002 drop']);
  });
});

describe('an expiry in an organization that stages its changes', () => {
  let server: TestServer;
  let admin: Headers;
  let rulesetId: number;
  let profileId: number;
  const ids: Record<string, number> = {};

  const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    api(server.app, { method, url, headers: admin, ...(payload === undefined ? {} : { payload }) });
  const served = async (name: string) => {
    const [row] = await server.db.query<{ saved: number; deployed: number | null }>(
      `SELECT d.config_version AS saved, dp.config_version AS deployed
         FROM devices d LEFT JOIN device_deployed dp ON dp.device_id = d.id WHERE d.id = $1`,
      [ids[name]],
    );
    return row;
  };
  const pending = async () =>
    (await call('GET', '/deployments/pending'))
      .json<{ data: { device_name: string }[] }>()
      .data.map((row) => row.device_name);

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const ruleset = await call('POST', '/fwruleset/', {
      name: 'Edge',
      policies: { input: 'accept', forward: 'accept', output: 'accept' },
      rules: [
        { chain: 'input', action: 'drop', protocol: 'tcp', destination_ports: '23' },
        {
          chain: 'input',
          action: 'drop',
          protocol: 'tcp',
          destination_ports: '2323',
          // Due in a moment: the devices are deployed with it first.
          expires_at: new Date(Date.now() + 5 * MINUTE).toISOString(),
          reason: 'scan from a partner',
        },
      ],
    });
    expect(ruleset.statusCode, ruleset.body).toBe(201);
    rulesetId = ruleset.json<{ id: number }>().id;
    const profile = await call('POST', '/deviceconfigurationprofiles/', {
      name: 'Sensors',
      variables: { HOME_NET: '[10.1.0.0/16]' },
    });
    profileId = profile.json<{ id: number }>().id;
    for (const name of ['sensor-idle', 'sensor-busy']) {
      const device = await call('POST', '/devices/', {
        name,
        password: 'device-password-0007',
        firewall_id: rulesetId,
        ...(name === 'sensor-busy' ? { profile_id: profileId } : {}),
      });
      expect(device.statusCode, device.body).toBe(201);
      ids[name] = device.json<{ id: number }>().id;
    }
    const staged = await call('PUT', '/organization/settings', { deploy_mode: 'staged' });
    expect(staged.statusCode, staged.body).toBe(200);
    // sensor-busy has a change nobody deployed yet.
    const saved = await call('PUT', `/deviceconfigurationprofiles/${profileId}`, {
      variables: { HOME_NET: '[10.2.0.0/16]' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  });
  afterAll(() => server.close());

  it('serves the expiry at once to a device with nothing else pending', async () => {
    expect(await pending()).toEqual(['sensor-busy']);
    const idle = await served('sensor-idle');
    expect(idle?.deployed).toBe(idle?.saved);

    expect(await createExpiryService(server.db).expire(new Date(Date.now() + 10 * MINUTE))).toBe(1);

    // Deployed in the same transaction: served the new version, nothing pending.
    const after = await served('sensor-idle');
    expect(after?.saved).toBe((idle?.saved ?? 0) + 1);
    expect(after?.deployed).toBe(after?.saved);
    const device = (await call('GET', `/devices/${ids['sensor-idle']}`)).json<DeviceBody>();
    expect(device.config_version_remote).toBe(after?.saved);
    const script = (await call('GET', `/devices/${ids['sensor-idle']}/firewall`)).json<{
      nftables: string;
    }>();
    expect(script.nftables).not.toContain('2323');

    // A deployment by the expiry, in the audit log as the server's.
    const deployments = (await call('GET', '/deployments/')).json<{
      data: { id: number; created_by: string; status: string; device_count: number }[];
    }>().data;
    expect(deployments).toEqual([
      expect.objectContaining({ created_by: 'expiry', status: 'deployed', device_count: 1 }),
    ]);
    const records = await server.db.query<{
      actor_kind: string;
      actor_name: string;
      action: string;
    }>(
      `SELECT actor_kind, actor_name, action FROM audit_log
        WHERE actor_name = 'expiry' ORDER BY id`,
    );
    expect(records).toEqual([
      { actor_kind: 'server', actor_name: 'expiry', action: 'expire' },
      { actor_kind: 'server', actor_name: 'expiry', action: 'deploy' },
    ]);
  });

  it('keeps it pending, with the other change, for a device that had one', async () => {
    const busy = await served('sensor-busy');
    expect(busy?.deployed).toBeLessThan(busy?.saved ?? 0);
    expect(await pending()).toEqual(['sensor-busy']);
    // It is in no deployment: the next deploy sends the profile change and the expiry together.
    const inDeployment = await server.db.query(
      'SELECT deployment_id FROM deployment_devices WHERE device_id = $1',
      [ids['sensor-busy']],
    );
    expect(inDeployment).toEqual([]);
    const diff = (await call('GET', `/devices/${ids['sensor-busy']}/pending-deploy`)).json<{
      nftables_diff: { diff: string } | null;
      variables: unknown;
    }>();
    expect(diff.nftables_diff?.diff).toMatch(/^-.*2323/m);
    expect(diff.variables).not.toBeNull();
  });
});
