// A profile's variables feed the firewall rules of the devices using it (a rule accepting $MGMT):
// changing them, rolling them back or moving a device to another profile is a firewall change,
// refused like a ruleset save when it would cut a device off, unless an Administrator overrides.

import type { ChangePreview } from '@palisade/contract';
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
const RULES = [
  ...LOOPBACK_AND_REPLIES,
  // The management rule: the server is wherever the profile's MGMT says.
  { ...MANAGEMENT_RULE, destination: '$MGMT' },
];
const GOOD = { MGMT: '[10.0.0.5]' };
const BAD = { MGMT: '[10.0.0.6]' };
const CUT_OFF =
  /^router-1 would lose its connection to the server \(10\.0\.0\.5:8443\/tcp\): the output policy drops new tcp to 10\.0\.0\.5:8443/;

describe('the lock-out check of profile changes', () => {
  let server: TestServer;
  let admin: Headers;
  let operator: Headers;
  let profileId: number;
  let otherProfileId: number;
  let deviceId: number;

  const call = (method: 'POST' | 'PUT' | 'GET', url: string, payload?: object, headers = admin) =>
    api(server.app, { method, url, headers, ...(payload ? { payload } : {}) });
  const profile = `/deviceconfigurationprofiles`;
  /** What a refused change must leave as it was. */
  const state = async () => {
    const [device] = await server.db.query<{
      config_version: number;
      config_sha256: string;
      profile_id: number | null;
    }>('SELECT config_version, config_sha256, profile_id FROM devices WHERE id = $1', [deviceId]);
    const variables = (await call('GET', `${profile}/?limit=100`)).json<{
      data: { id: number; variables: Record<string, string> }[];
    }>().data;
    const versions = await call('GET', `${profile}/${profileId}/versions`);
    const audit = await server.db.query<{ action: string; object_type: string }>(
      'SELECT action, object_type FROM audit_log ORDER BY id',
    );
    return {
      device,
      variables,
      versions: versions.json<{ recordsTotal: number }>().recordsTotal,
      audit,
    };
  };
  const history = (type: string, id: number) =>
    server.db.query<{ action: string; actor_name: string; after: unknown }>(
      `SELECT action, actor_name, after FROM audit_log
        WHERE object_type = $1 AND object_id = $2 ORDER BY id DESC`,
      [type, String(id)],
    );

  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL: 'https://10.0.0.9:9443' });
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    operator = await signInNewOperator(server.app, admin);
    const created = await call('POST', `${profile}/`, { name: 'Sensors', variables: GOOD });
    expect(created.statusCode, created.body).toBe(201);
    profileId = created.json<{ id: number }>().id;
    const other = await call('POST', `${profile}/`, { name: 'Elsewhere', variables: BAD });
    otherProfileId = other.json<{ id: number }>().id;
    const ruleset = await call('POST', '/fwruleset/', {
      name: 'Edge',
      policies: POLICIES,
      rules: RULES,
    });
    expect(ruleset.statusCode, ruleset.body).toBe(201);
    deviceId = await deviceReachingServer(server.app, admin, 'router-1');
    const assigned = await call('PUT', `/devices/${deviceId}`, {
      profile_id: profileId,
      firewall_id: ruleset.json<{ id: number }>().id,
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await server.close();
  });

  it('refuses a variable change that cuts a device off, changing nothing', async () => {
    const before = await state();
    const refused = await call('PUT', `${profile}/${profileId}`, { variables: BAD }, operator);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'lockout' });
    expect(refused.json<{ msg: string }>().msg).toMatch(CUT_OFF);
    expect(refused.json<{ details: { field: string }[] }>().details).toContainEqual(
      expect.objectContaining({ field: 'policies.output' }),
    );
    // No variable, version, device config or audit record moved.
    expect(await state()).toEqual(before);

    // The preview says so before Save, and commits nothing either.
    const preview = await call('PUT', `${profile}/${profileId}/preview`, { variables: BAD });
    expect(preview.statusCode, preview.body).toBe(200);
    const [finding] = preview.json<ChangePreview>().lockout;
    expect(finding).toMatchObject({ device_name: 'router-1', overridden: false });
    expect(finding?.message).toBe(refused.json<{ msg: string }>().msg);
    expect(await state()).toEqual(before);
  });

  it('lets an Administrator override it, audited; an Operator may not', async () => {
    const before = await state();
    const byOperator = await call(
      'PUT',
      `${profile}/${profileId}`,
      { variables: BAD, override_lockout: true },
      operator,
    );
    expect(byOperator.statusCode).toBe(422);
    expect(byOperator.json()).toMatchObject({ code: 'validation_failed' });
    expect(await state()).toEqual(before);

    const overridden = await call('PUT', `${profile}/${profileId}`, {
      variables: BAD,
      override_lockout: true,
    });
    expect(overridden.statusCode, overridden.body).toBe(200);
    const after = await state();
    expect(after.versions).toBe(before.versions + 1);
    expect(after.device?.config_version).toBe((before.device?.config_version ?? 0) + 1);
    const [override, update] = await history('profile', profileId);
    expect(override).toMatchObject({
      action: 'lockout_override',
      actor_name: ADMIN_EMAIL,
      after: { devices: [{ device: 'router-1' }] },
    });
    expect(update?.action).toBe('update');
  });

  it('checks a rollback as a save: refused, then overridden by an Administrator', async () => {
    // Back to what reaches the server (checked, and passing), then roll back to the cut-off.
    const restored = await call('PUT', `${profile}/${profileId}`, { variables: GOOD }, operator);
    expect(restored.statusCode, restored.body).toBe(200);
    const bad = 2;
    const before = await state();

    const refused = await call(
      'POST',
      `${profile}/${profileId}/rollback`,
      { version: bad },
      operator,
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'lockout' });
    expect(refused.json<{ msg: string }>().msg).toMatch(CUT_OFF);
    expect(await state()).toEqual(before);

    const preview = await call('POST', `${profile}/${profileId}/rollback/preview`, {
      version: bad,
      override_lockout: true,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json<ChangePreview>().lockout).toMatchObject([
      { device_name: 'router-1', overridden: true },
    ]);

    const byOperator = await call(
      'POST',
      `${profile}/${profileId}/rollback`,
      { version: bad, override_lockout: true },
      operator,
    );
    expect(byOperator.json()).toMatchObject({ code: 'validation_failed' });
    expect(await state()).toEqual(before);

    const overridden = await call('POST', `${profile}/${profileId}/rollback`, {
      version: bad,
      override_lockout: true,
    });
    expect(overridden.statusCode, overridden.body).toBe(200);
    expect(overridden.json()).toMatchObject({ version: 4, changed: true, device_count: 1 });
    const [override, rollback] = await history('profile', profileId);
    expect(override).toMatchObject({ action: 'lockout_override' });
    expect(rollback?.action).toBe('rollback');
  });

  it("checks a device's move to another profile", async () => {
    expect(
      (await call('PUT', `${profile}/${profileId}`, { variables: GOOD }, operator)).statusCode,
    ).toBe(200);
    const before = await state();

    const refused = await call(
      'PUT',
      `/devices/${deviceId}`,
      { profile_id: otherProfileId },
      operator,
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'lockout' });
    expect(refused.json<{ msg: string }>().msg).toMatch(CUT_OFF);
    expect(await state()).toEqual(before);

    const byOperator = await call(
      'PUT',
      `/devices/${deviceId}`,
      { profile_id: otherProfileId, override_lockout: true },
      operator,
    );
    expect(byOperator.json()).toMatchObject({ code: 'validation_failed' });
    expect(await state()).toEqual(before);

    const overridden = await call('PUT', `/devices/${deviceId}`, {
      profile_id: otherProfileId,
      override_lockout: true,
    });
    expect(overridden.statusCode, overridden.body).toBe(200);
    expect((await state()).device?.profile_id).toBe(otherProfileId);
    const [override, assign] = await history('device', deviceId);
    expect(override).toMatchObject({
      action: 'lockout_override',
      after: { devices: [{ device: 'router-1' }] },
    });
    expect(assign?.action).toBe('assign');

    // A move that keeps the server reachable needs no override.
    const back = await call('PUT', `/devices/${deviceId}`, { profile_id: profileId }, operator);
    expect(back.statusCode, back.body).toBe(200);
  });
});
