import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertFiredUnder } from '@palisade/contract';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { enrolDevice, policyFromRules } from '../../test/fixtures.js';
import { ruleChangeBetween } from './rule-change.js';

type Headers = { authorization: string };
const SID = 2_200_001;
const DEVICE_PASSWORD = 'device-secret-1234';

describe('an alert records the policy version its device ran (issue 20, item 5)', () => {
  let server: TestServer;
  let admin: Headers;
  let policyId: number;
  let deviceId: number;
  let agent: Headers;
  let seq = 0;

  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, as = admin) =>
    api(server.app, { method, url, headers: as, ...(payload ? { payload } : {}) });
  const policyVersion = async () =>
    (await call('GET', `/policies/${policyId}`)).json<{ version: number }>().version;
  const applied = async (policyVersionApplied: number) => {
    const response = await call(
      'POST',
      '/agent/applied',
      { config_version: 1, policy_version: policyVersionApplied, ok: true },
      agent,
    );
    expect(response.statusCode, response.body).toBe(200);
  };
  /** Sends one alert of SID through the agent API and answers its id. */
  const sendAlert = async (rev: number) => {
    seq += 1;
    const flowId = 900_000 + seq;
    const response = await call(
      'POST',
      '/agent/alerts',
      {
        seq,
        events: [
          {
            timestamp: '2026-11-28T07:00:00.000001+0000',
            event_type: 'alert',
            flow_id: flowId,
            src_ip: '203.0.113.7',
            src_port: 40000,
            dest_ip: '10.9.9.9',
            dest_port: 80,
            proto: 'TCP',
            alert: { gid: 1, signature_id: SID, rev, signature: 'recorded signature', severity: 2 },
          },
        ],
      },
      agent,
    );
    expect(response.statusCode, response.body).toBe(200);
    const [row] = await server.db.query<{ id: string }>(
      'SELECT id::text FROM device_alerts WHERE flow_id = $1',
      [flowId],
    );
    return Number(row?.id);
  };
  const detail = async (id: number) => {
    const response = await call('GET', `/alerts/${id}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ fired_under: AlertFiredUnder | null; rule: { rev: number | null } }>();
  };

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    policyId = await policyFromRules(
      server.app,
      admin,
      'recorded.rules',
      `alert tcp any any -> any any (msg:"recorded signature"; sid:${SID}; rev:3;)\n`,
      'Recorded',
    );
    ({ id: deviceId, agent } = await enrolDevice(server.app, admin, {
      name: 'edge-recorded',
      policy_id: policyId,
    }));
  });
  afterAll(() => server.close());

  it('says nothing of a version before the device applied one', async () => {
    const id = await sendAlert(3);
    expect((await detail(id)).fired_under).toEqual({
      policy_id: policyId,
      policy_name: 'Recorded',
      version: null,
      current_version: await policyVersion(),
      rule_change: null,
    });
  });

  it('names the version applied, and that the rule was disabled since', async () => {
    const before = await policyVersion();
    await applied(before);
    const id = await sendAlert(3);
    const fresh = await detail(id);
    expect(fresh.fired_under).toMatchObject({ version: before, current_version: before });
    expect(fresh.fired_under?.rule_change).toBeNull();

    const tuned = await call('POST', `/alerts/${id}/tune`, { action: 'disable_rule' });
    expect(tuned.statusCode, tuned.body).toBe(200);
    const after = await policyVersion();
    expect(after).toBeGreaterThan(before);
    expect((await detail(id)).fired_under).toEqual({
      policy_id: policyId,
      policy_name: 'Recorded',
      version: before,
      current_version: after,
      rule_change: 'disabled',
    });

    // An alert raised once the device applied the new version has nothing changed since.
    await applied(after);
    const later = await detail(await sendAlert(3));
    expect(later.fired_under).toMatchObject({ version: after, rule_change: null });
  });

  it('keeps the rule revision the engine ran beside the one the organization has now', async () => {
    const id = await sendAlert(2);
    const answer = await detail(id);
    expect(answer.rule.rev).toBe(3);
    const [row] = await server.db.query<{ rev: number }>(
      'SELECT rev FROM device_alerts WHERE id = $1',
      [id],
    );
    expect(row?.rev).toBe(2);
  });

  it('names the policy last deployed to the device, not one saved since (staged)', async () => {
    // Pinned with no policy (as a staged deploy pins it), though one is saved for it.
    await server.db.query(
      `INSERT INTO device_deployed (device_id, config_version, config_sha256, policy_id,
                                    policy_version, policy_sha256)
       VALUES ($1, 1, '', NULL, 0, '')`,
      [deviceId],
    );
    expect((await detail(await sendAlert(3))).fired_under).toBeNull();
    await server.db.query('DELETE FROM device_deployed WHERE device_id = $1', [deviceId]);
    expect((await detail(await sendAlert(3))).fired_under?.policy_id).toBe(policyId);
  });

  it('records no policy for a device without one, and keeps another organization out', async () => {
    const bare = await call('POST', '/devices/', { name: 'edge-bare', password: DEVICE_PASSWORD });
    const bareId = bare.json<{ id: number }>().id;
    const [row] = await server.db.query<{ id: string }>(
      `INSERT INTO device_alerts (org_id, device_id, time, gid, sid, rev, event)
       SELECT org_id, id, now(), 1, $2, 1, '{}' FROM devices WHERE id = $1 RETURNING id::text`,
      [bareId, SID],
    );
    expect((await detail(Number(row?.id))).fired_under).toBeNull();
  });
});

describe('ruleChangeBetween reads what became of one rule between two rules files', () => {
  const rule = (sid: number, extra = '') =>
    `alert tcp any any -> any any (msg:"r${sid}"; ${extra}sid:${sid}; rev:1;)`;
  const file = (...lines: string[]) => `${lines.join('\n')}\n`;

  it('tells each kind of change apart, by gid and sid', () => {
    const then = file(rule(10), rule(11), `# ${rule(12)}`, rule(13));
    expect(ruleChangeBetween(then, then, 1, 10)).toBeNull();
    expect(ruleChangeBetween(then, file(rule(10, 'flow:established; ')), 1, 10)).toBe('modified');
    expect(ruleChangeBetween(then, file(`# ${rule(11)}`), 1, 11)).toBe('disabled');
    expect(ruleChangeBetween(then, file(rule(12)), 1, 12)).toBe('enabled');
    expect(ruleChangeBetween(then, file(rule(10)), 1, 13)).toBe('disabled');
    expect(ruleChangeBetween(then, file(rule(14)), 1, 14)).toBe('enabled');
    expect(ruleChangeBetween(then, file(rule(11)), 1, 14)).toBeNull();
    // sid 1 is not sid 10 or 11, and another gid is another rule.
    expect(ruleChangeBetween(then, then, 1, 1)).toBeNull();
    expect(ruleChangeBetween(then, file(rule(10, 'gid:3; ')), 1, 10)).toBe('disabled');
  });
});
