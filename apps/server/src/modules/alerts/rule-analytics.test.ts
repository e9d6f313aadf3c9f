import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuleActivity, RuleAnalytics, SilentRules } from '@palisade/contract';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { enrolDevice, policyFromRules, signInOtherOrganization } from '../../test/fixtures.js';

type Headers = { authorization: string };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOISY = 3_100_001;
const JUMPING = 3_100_002;
const SILENT = 3_100_003;
const OFF = 3_100_004;

const rule = (sid: number) =>
  `alert tcp any any -> any any (msg:"analytics ${sid}"; sid:${sid}; rev:1;)`;
/** Suricata's timestamp for a moment: `2026-11-28T07:00:00.123000+0000`. */
const eveTime = (ms: number) => new Date(ms).toISOString().replace('Z', '000+0000');

interface Sent {
  device: string;
  sid: number;
  at: number;
}

/** Rule analytics over alerts sent through the agent API, checked against counts of what was sent. */
describe('rule analytics, from the rollup kept at ingest (issue 20, item 2)', () => {
  let server: TestServer;
  let admin: Headers;
  let policyId: number;
  const agents = new Map<string, { id: number; headers: Headers; seq: number }>();
  const sent: Sent[] = [];
  const now = Date.now();

  const get = async <T>(url: string, as = admin) => {
    const response = await api(server.app, { method: 'GET', url, headers: as });
    return { status: response.statusCode, body: response.json<T>() };
  };
  const device = async (name: string, policy: number | null) => {
    const { id, agent } = await enrolDevice(server.app, admin, { name, policy_id: policy });
    agents.set(name, { id, headers: agent, seq: 0 });
  };
  const batch = (events: Sent[], seq: number) => ({
    seq,
    events: events.map((event) => ({
      timestamp: eveTime(event.at),
      event_type: 'alert',
      src_ip: '203.0.113.9',
      dest_ip: '10.0.0.9',
      proto: 'TCP',
      alert: { gid: 1, signature_id: event.sid, rev: 1, signature: `analytics ${event.sid}` },
    })),
  });
  const send = async (events: Sent[]) => {
    const name = events[0]?.device ?? '';
    const agent = agents.get(name);
    if (!agent) throw new Error(name);
    agent.seq += 1;
    const response = await api(server.app, {
      method: 'POST',
      url: '/agent/alerts',
      headers: agent.headers,
      payload: batch(events, agent.seq),
    });
    expect(response.statusCode, response.body).toBe(200);
    sent.push(...events);
  };
  /** What was sent, counted by brute force: the first UTC day of a window of `days`. */
  const windowStart = (days: number) => {
    const today = new Date(now);
    return (
      Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - (days - 1) * DAY
    );
  };
  const sentIn = (days: number, filter: (s: Sent) => boolean = () => true) =>
    sent.filter((s) => s.at >= windowStart(days) && filter(s));
  const dailyOf = (days: number, items: Sent[]) => {
    const counts = new Array<number>(days).fill(0);
    for (const item of items) {
      const index = Math.floor((item.at - windowStart(days)) / DAY);
      counts[index] = (counts[index] ?? 0) + 1;
    }
    return counts;
  };

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    policyId = await policyFromRules(
      server.app,
      admin,
      'analytics.rules',
      [rule(NOISY), rule(JUMPING), rule(SILENT), `# ${rule(OFF)}`].join('\n') + '\n',
      'Analytics',
    );
    await device('edge-a', policyId);
    await device('edge-b', policyId);
    // The noisy rule: 20 a day on edge-a over the last 5 days, 5 yesterday on edge-b.
    for (let day = 0; day < 5; day += 1) {
      await send(
        Array.from({ length: 20 }, (_, i) => ({
          device: 'edge-a',
          sid: NOISY,
          at: now - day * DAY - 2 * HOUR - i * 60_000,
        })),
      );
    }
    await send(
      Array.from({ length: 5 }, (_, i) => ({
        device: 'edge-b',
        sid: NOISY,
        at: now - DAY - 3 * HOUR - i * 1000,
      })),
    );
    // The jumping rule: one a day for days 2–5 ago, then 30 in the last three hours.
    for (let day = 2; day < 6; day += 1)
      await send([{ device: 'edge-b', sid: JUMPING, at: now - day * DAY - HOUR }]);
    await send(
      Array.from({ length: 30 }, (_, i) => ({
        device: 'edge-b',
        sid: JUMPING,
        at: now - HOUR - i * 5 * 60_000,
      })),
    );
  });
  afterAll(() => server.close());

  it('lists the noisiest rules with their share, devices and alerts per day', async () => {
    const { status, body } = await get<RuleAnalytics>('/ruleanalytics/?days=7');
    expect(status).toBe(200);
    const all = sentIn(7);
    expect(body.total).toBe(all.length);
    expect(body.since).toBe(new Date(windowStart(7)).toISOString().slice(0, 10));
    const [first, second] = body.noisiest;
    const noisy = sentIn(7, (s) => s.sid === NOISY);
    expect(first).toMatchObject({
      gid: 1,
      sid: NOISY,
      msg: `analytics ${NOISY}`,
      count: noisy.length,
      devices: 2,
    });
    expect(first?.share).toBeCloseTo(noisy.length / all.length, 10);
    expect(first?.daily).toEqual(dailyOf(7, noisy));
    expect(first?.last_seen).toBe(new Date(Math.max(...noisy.map((s) => s.at))).toISOString());
    expect(second).toMatchObject({
      sid: JUMPING,
      count: sentIn(7, (s) => s.sid === JUMPING).length,
    });
  });

  it('narrows to one device', async () => {
    const b = agents.get('edge-b')?.id;
    const { body } = await get<RuleAnalytics>(`/ruleanalytics/?days=7&device_id=${b}`);
    const onB = sentIn(7, (s) => s.device === 'edge-b');
    expect(body.total).toBe(onB.length);
    expect(body.noisiest.map((r) => [r.sid, r.count, r.devices])).toEqual([
      [JUMPING, onB.filter((s) => s.sid === JUMPING).length, 1],
      [NOISY, 5, 1],
    ]);
  });

  it('names the rule whose share jumped against its own baseline, not the steady one', async () => {
    const { body } = await get<RuleAnalytics>('/ruleanalytics/?days=7');
    expect(body.jumped.map((r) => r.sid)).toEqual([JUMPING]);
    const [jump] = body.jumped;
    expect(jump?.recent).toBe(30);
    expect(jump?.factor).toBeGreaterThanOrEqual(3);
    expect(jump?.recent_share).toBeGreaterThan(jump?.baseline_share ?? 1);
    // One day has no baseline to jump from.
    expect((await get<RuleAnalytics>('/ruleanalytics/?days=1')).body.jumped).toEqual([]);
  });

  it("lists the policy's enabled rules that never fired, and follows the policy's edits", async () => {
    const silent = await get<SilentRules>(`/ruleanalytics/silent/${policyId}?days=30`);
    expect(silent.status).toBe(200);
    expect(silent.body).toMatchObject({ enabled: 3, devices: 2, recordsTotal: 1 });
    expect(silent.body.data).toEqual([{ gid: 1, sid: SILENT, msg: `analytics ${SILENT}` }]);
    // In a window of one day (today, in UTC) the rules that fired in it are left out; which
    // ones did depends on the time of day the test runs, so it is counted from what was sent.
    const firedToday = new Set(sentIn(1).map((s) => s.sid));
    expect((await get<SilentRules>(`/ruleanalytics/silent/${policyId}?days=1`)).body.data).toEqual(
      [NOISY, JUMPING, SILENT]
        .filter((sid) => !firedToday.has(sid))
        .map((sid) => ({ gid: 1, sid, msg: `analytics ${sid}` })),
    );
    const rules = (await get<{ data: { id: number; sid: number }[] }>('/rules/')).body.data;
    const silentRule = rules.find((r) => r.sid === SILENT);
    const disabled = await api(server.app, {
      method: 'PUT',
      url: `/policies/${policyId}`,
      headers: admin,
      payload: { overrides: [{ rule_id: silentRule?.id, action: 'disable' }] },
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    const after = await get<SilentRules>(`/ruleanalytics/silent/${policyId}?days=30`);
    expect(after.body).toMatchObject({ enabled: 2, recordsTotal: 0, data: [] });
  });

  it("tells one rule's days, devices and first and last alert", async () => {
    const { status, body } = await get<RuleActivity>(`/ruleanalytics/1/${NOISY}?days=7`);
    expect(status).toBe(200);
    const noisy = sent.filter((s) => s.sid === NOISY);
    expect(body).toMatchObject({ gid: 1, sid: NOISY, msg: `analytics ${NOISY}` });
    expect(body.count).toBe(sentIn(7, (s) => s.sid === NOISY).length);
    expect(body.daily).toEqual(
      dailyOf(
        7,
        sentIn(7, (s) => s.sid === NOISY),
      ),
    );
    expect(body.first_seen).toBe(new Date(Math.min(...noisy.map((s) => s.at))).toISOString());
    expect(body.last_seen).toBe(new Date(Math.max(...noisy.map((s) => s.at))).toISOString());
    expect(body.devices.map((d) => [d.device, d.count])).toEqual([
      ['edge-a', 100],
      ['edge-b', 5],
    ]);
    const never = await get<RuleActivity>(`/ruleanalytics/1/${SILENT}?days=7`);
    expect(never.body).toMatchObject({ count: 0, first_seen: null, last_seen: null, devices: [] });
  });

  it('counts a batch sent again once', async () => {
    const before = (await get<RuleAnalytics>('/ruleanalytics/?days=7')).body.total;
    const agent = agents.get('edge-a');
    const again = await api(server.app, {
      method: 'POST',
      url: '/agent/alerts',
      headers: agent?.headers ?? {},
      payload: batch(sent.filter((s) => s.device === 'edge-a').slice(0, 20), agent?.seq ?? 0),
    });
    expect(again.statusCode).toBe(200);
    expect((await get<RuleAnalytics>('/ruleanalytics/?days=7')).body.total).toBe(before);
  });

  it("shows another organization none of this, and refuses its policy's id", async () => {
    const other = await signInOtherOrganization(server.app);
    const { body } = await get<RuleAnalytics>('/ruleanalytics/?days=30', other);
    expect(body).toMatchObject({ total: 0, noisiest: [], jumped: [] });
    expect((await get(`/ruleanalytics/silent/${policyId}`, other)).status).toBe(404);
    expect((await get<RuleActivity>(`/ruleanalytics/1/${NOISY}`, other)).body.count).toBe(0);
  });

  it('refuses a window out of range, naming the field', async () => {
    const { status, body } = await get<{ msg: string }>('/ruleanalytics/?days=91');
    expect(status).toBe(422);
    expect(body.msg).toMatch(/days/);
  });
});
