import type { AuditPage, AuditRecord } from '@palisade/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

type Headers = { authorization: string };

const SAFE = [
  { chain: 'input', action: 'accept', in_interface: 'lo', comment: 'loopback' },
  { chain: 'input', action: 'accept', states: ['established', 'related'], comment: 'replies' },
  { chain: 'output', action: 'accept', out_interface: 'lo' },
  { chain: 'output', action: 'accept', states: ['established', 'related'] },
  {
    chain: 'output',
    action: 'accept',
    protocol: 'tcp',
    destination: '10.0.0.9',
    destination_ports: '9443',
  },
];
const POLICIES = { input: 'drop', forward: 'drop', output: 'drop' };

/** What the records of particular changes hold: never a secret, and the overrides. */
describe('what an audit record holds', () => {
  let server: TestServer;
  let admin: Headers;

  const call = (method: 'POST' | 'PUT', url: string, payload: object) =>
    api(server.app, { method, url, headers: admin, payload });
  const history = async (type: string, id: number | string) => {
    const response = await api(server.app, {
      method: 'GET',
      url: `/audit/?object_type=${type}&object_id=${id}`,
      headers: admin,
    });
    return response.json<AuditPage>().data;
  };

  beforeAll(async () => {
    // Devices whose agent reports no endpoint are checked against PUBLIC_URL's.
    server = await startTestServer({ PUBLIC_URL: 'https://10.0.0.9:9443' });
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
  }, 60_000);
  afterAll(() => server.close());

  it('says a user password changed, without any hash', async () => {
    const created = await call('POST', '/users/', {
      email: 'ann@example.com',
      password: 'Strong#2026x',
    });
    const id = created.json<{ id: number }>().id;
    await call('PUT', `/users/${id}`, { password: 'Other#2026xx', first_name: 'Ann' });
    const [update, create] = await history('user', id);
    expect(update).toMatchObject({
      action: 'update',
      before: { first_name: '' },
      after: { first_name: 'Ann', password: 'changed' },
    });
    const text = JSON.stringify([update, create]);
    expect(text).not.toMatch(/argon2|Strong#2026x|Other#2026xx|password_hash/);
  });

  it("says a rule source's secret changed, never what it is", async () => {
    const created = await call('POST', '/rulesources/', {
      name: 'ET Pro',
      url: 'https://rules.example/%SECRET_CODE%/etpro.tar.gz',
      secret_code: 'first-secret-value',
      schedule: { kind: 'manual' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: number }>().id;
    await call('PUT', `/rulesources/${id}`, { secret_code: 'second-secret-value' });
    const records = await history('rule_source', id);
    expect(records.map((r) => r.action)).toEqual(['update', 'create']);
    expect(records[0]?.after).toEqual({ secret_code: 'secret changed' });
    expect(records[1]?.after).toMatchObject({ has_secret: true });
    expect(JSON.stringify(records)).not.toMatch(/first-secret|second-secret/);
  });

  it('records an override of the lock-out check, naming the device and what it would lose', async () => {
    const ruleset = await call('POST', '/fwruleset/', {
      name: 'Edge',
      policies: POLICIES,
      rules: SAFE,
    });
    const rulesetId = ruleset.json<{ id: number }>().id;
    const device = await call('POST', '/devices/', {
      name: 'router-1',
      password: 'device-secret-1234',
      firewall_id: rulesetId,
    });
    expect(device.statusCode, device.body).toBe(201);

    // Overridden but harmless: no override to record.
    const harmless = await call('PUT', `/fwruleset/${rulesetId}`, {
      name: 'Edge',
      description: 'checked',
      policies: POLICIES,
      rules: SAFE,
      override_lockout: true,
    });
    expect(harmless.statusCode, harmless.body).toBe(200);
    expect((await history('firewall_ruleset', rulesetId)).map((r) => r.action)).toEqual([
      'update',
      'create',
    ]);

    const cutOff = await call('PUT', `/fwruleset/${rulesetId}`, {
      name: 'Edge',
      policies: POLICIES,
      rules: [],
      override_lockout: true,
    });
    expect(cutOff.statusCode, cutOff.body).toBe(200);
    const [override, update] = await history('firewall_ruleset', rulesetId);
    expect(override).toMatchObject({
      action: 'lockout_override',
      actor_name: ADMIN_EMAIL,
      after: { devices: [{ device: 'router-1' }] },
    });
    expect(update?.action).toBe('update');
    expect((update?.before as { rules: unknown[] }).rules).toHaveLength(SAFE.length);
    expect(update?.after).toMatchObject({ rules: [] });
  });

  it('records a new profile, policy or ruleset on a device as an assignment', async () => {
    const device = await call('POST', '/devices/', {
      name: 'sensor-2',
      password: 'device-secret-1234',
    });
    const id = device.json<{ id: number }>().id;
    const profile = await call('POST', '/deviceconfigurationprofiles/', { name: 'Office' });
    const profileId = profile.json<{ id: number }>().id;
    await call('PUT', `/devices/${id}`, { profile_id: profileId });
    const [assign] = await history('device', id);
    expect(assign).toMatchObject<Partial<AuditRecord>>({
      action: 'assign',
      before: { profile_id: null },
      after: { profile_id: profileId },
    });
  });
});
