import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { policyFromRules } from '../../test/fixtures.js';

type Headers = { authorization: string };
const SID = 2_100_001;

/** Each refusal of POST /alerts/{id}/tune answers its own code (TuneErrorCode). */
describe('tuning from an alert refuses conflicts, each with its own code', () => {
  let server: TestServer;
  let admin: Headers;
  let policyId: number;
  let tunedDevice: number;
  let bareDevice: number;

  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, as = admin) =>
    api(server.app, { method, url, headers: as, ...(payload ? { payload } : {}) });
  const tune = async (id: number, action: string, as = admin) => {
    const response = await call('POST', `/alerts/${id}/tune`, { action }, as);
    return { status: response.statusCode, ...response.json<{ code?: string; msg: string }>() };
  };
  const policyVersion = async () =>
    (await call('GET', `/policies/${policyId}`)).json<{ version: number }>().version;

  /** An alert as a sensor would have sent it; fields the agent may leave out can be null. */
  const alert = async (
    deviceId: number,
    fields: { gid?: number | null; sid?: number | null; src_ip?: string | null } = {},
  ) => {
    const [row] = await server.db.query<{ id: number }>(
      `INSERT INTO device_alerts (org_id, device_id, time, gid, sid, rev, msg, severity, proto,
                                  src_ip, src_port, dest_ip, dest_port, event)
       SELECT org_id, id, now(), $2, $3, 1, 'tuning test', 2, 'TCP', $4, 40000, '10.9.9.9', 80, '{}'
         FROM devices WHERE id = $1
       RETURNING id`,
      [
        deviceId,
        fields.gid === undefined ? 1 : fields.gid,
        fields.sid === undefined ? SID : fields.sid,
        fields.src_ip === undefined ? '203.0.113.7' : fields.src_ip,
      ],
    );
    return Number(row?.id);
  };

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    policyId = await policyFromRules(
      server.app,
      admin,
      'tuned.rules',
      `alert tcp any any -> any any (msg:"tuned signature"; sid:${SID}; rev:1;)\n`,
      'Tuned',
    );
    const device = async (name: string, policy: number | null) =>
      (
        await call('POST', '/devices/', {
          name,
          password: 'device-secret-1234',
          policy_id: policy,
        })
      ).json<{ id: number }>().id;
    tunedDevice = await device('edge-1', policyId);
    bareDevice = await device('bare-1', null);
  });
  afterAll(() => server.close());

  it('tune_rule_already_disabled: the policy already disables the rule', async () => {
    const id = await alert(tunedDevice);
    expect((await tune(id, 'disable_rule')).status).toBe(200);
    const version = await policyVersion();
    const again = await tune(id, 'disable_rule');
    expect(again).toMatchObject({ status: 409, code: 'tune_rule_already_disabled' });
    expect(again.msg).toContain(`1:${SID}`);
    expect(await policyVersion()).toBe(version);
  });

  it('tune_source_already_suppressed: the policy already suppresses that source', async () => {
    const id = await alert(tunedDevice);
    expect((await tune(id, 'suppress_source')).status).toBe(200);
    const version = await policyVersion();
    // Another alert of the same signature from the same source: the same suppression.
    const again = await tune(await alert(tunedDevice), 'suppress_source');
    expect(again).toMatchObject({ status: 409, code: 'tune_source_already_suppressed' });
    expect(await policyVersion()).toBe(version);
    // Another source is suppressed on its own.
    const other = await alert(tunedDevice, { src_ip: '198.51.100.1' });
    expect((await tune(other, 'suppress_source')).status).toBe(200);
  });

  it('tune_no_policy: the device has no policy', async () => {
    const id = await alert(bareDevice);
    expect(await tune(id, 'disable_rule')).toMatchObject({ status: 409, code: 'tune_no_policy' });
    expect(await tune(id, 'suppress_source')).toMatchObject({ code: 'tune_no_policy' });
  });

  it('tune_no_signature: the alert names no rule', async () => {
    const id = await alert(tunedDevice, { gid: null, sid: null });
    expect(await tune(id, 'suppress_source')).toMatchObject({
      status: 409,
      code: 'tune_no_signature',
    });
  });

  it('tune_no_source: the alert has no source address to suppress', async () => {
    const id = await alert(tunedDevice, { src_ip: null });
    expect(await tune(id, 'suppress_source')).toMatchObject({
      status: 409,
      code: 'tune_no_source',
    });
  });

  it('tune_rule_unknown: the organization does not have the rule', async () => {
    const id = await alert(tunedDevice, { sid: 4_242_424 });
    expect(await tune(id, 'disable_rule')).toMatchObject({
      status: 404,
      code: 'tune_rule_unknown',
    });
  });

  it('tune_policy_restricted: an Operator outside the editors is refused without a 403', async () => {
    await call('POST', '/users/', {
      email: 'op@example.com',
      password: 'Operator#2026',
      role: 'Operator',
    });
    const operator = await signIn(server.app, 'op@example.com', 'Operator#2026');
    const id = await alert(tunedDevice, { src_ip: '192.0.2.44' });
    expect((await call('PUT', `/policies/${policyId}`, { restricted: true })).statusCode).toBe(200);
    const refused = await tune(id, 'suppress_source', operator);
    expect(refused).toMatchObject({ status: 409, code: 'tune_policy_restricted' });
    expect(refused.msg).toContain("'Tuned'");
    // Administrators edit a restricted policy; Viewers stay a plain 403.
    expect((await tune(id, 'suppress_source')).status).toBe(200);
    await call('POST', '/users/', {
      email: 'v@example.com',
      password: 'Viewer#2026',
      role: 'Viewer',
    });
    const viewer = await signIn(server.app, 'v@example.com', 'Viewer#2026');
    expect(await tune(id, 'disable_rule', viewer)).toMatchObject({
      status: 403,
      code: 'forbidden',
    });
  });

  it('is previewed first: what the device would receive, and nothing changes', async () => {
    const id = await alert(tunedDevice, { src_ip: '192.0.2.77' });
    const version = await policyVersion();
    const preview = await call('POST', `/alerts/${id}/tune/preview`, {
      action: 'suppress_source',
    });
    expect(preview.statusCode).toBe(200);
    const body = preview.json<{
      devices_reached: number;
      policy_changed: number;
      devices: { name: string; policy: { thresholds_diff: string | null } | null }[];
    }>();
    expect(body).toMatchObject({ devices_reached: 1, policy_changed: 1 });
    expect(body.devices.map((d) => d.name)).toEqual(['edge-1']);
    expect(JSON.stringify(body.devices[0]?.policy)).toContain('192.0.2.77');
    expect(await policyVersion()).toBe(version);
    // The tuning itself is still to be made: it is not refused as already done.
    expect((await tune(id, 'suppress_source')).status).toBe(200);
    expect(await policyVersion()).toBe(version + 1);
    // A preview is refused as the tuning is.
    const again = await call('POST', `/alerts/${id}/tune/preview`, { action: 'suppress_source' });
    expect(again.json<{ code: string }>().code).toBe('tune_source_already_suppressed');
  });
});
