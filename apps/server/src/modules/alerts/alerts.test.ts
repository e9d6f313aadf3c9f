import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRetention } from '../../plugins/retention.js';
import { eveAlerts } from '../../test/corpus.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { consoleEvents, policyFromRules, signInOtherOrganization } from '../../test/fixtures.js';

type Headers = { authorization: string };
interface Page {
  data: {
    id: number;
    sid: number;
    src_ip: string;
    time: string;
    severity: number;
    device: string;
    acknowledged: boolean;
  }[];
  recordsTotal: number;
  recordsTotalIsExact: boolean;
  next_cursor: string | null;
}

const EVENTS = eveAlerts('Menna-Islam__Zeus__eve.json');

describe('alerts', () => {
  let server: TestServer;
  let admin: Headers;
  let agent: Headers;
  let deviceId: number;
  let policyId: number;
  const firedSid = Number((EVENTS[0]?.['alert'] as { signature_id: number }).signature_id);

  const call = (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: unknown,
    headers: Headers = admin,
  ) =>
    api(server.app, {
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const page = async (query: string) => (await call('GET', `/alerts/?${query}`)).json<Page>();

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    // The policy holds the rule that fires in the replayed events.
    policyId = await policyFromRules(
      server.app,
      admin,
      'zeus.rules',
      `alert tcp any any -> any any (msg:"replayed signature"; sid:${firedSid}; rev:1;)\n`,
      'Zeus watch',
    );
    deviceId = (
      await call('POST', '/devices/', {
        name: 'dmz-1',
        password: 'device-secret-1234',
        policy_id: policyId,
      })
    ).json<{ id: number }>().id;
    const login = await api(server.app, {
      method: 'POST',
      url: '/agent/login',
      payload: { device_id: deviceId, password: 'device-secret-1234' },
    });
    agent = { authorization: `Bearer ${login.json<{ access_token: string }>().access_token}` };
    for (let i = 0; i < EVENTS.length; i += 200) {
      await api(server.app, {
        method: 'POST',
        url: '/agent/alerts',
        headers: agent,
        payload: { seq: i / 200 + 1, events: EVENTS.slice(i, i + 200) },
      });
    }
  });
  afterAll(() => server.close());

  it('lists every replayed alert newest first, and keyset pages cover them exactly once', async () => {
    const first = await page('limit=100');
    expect(first.recordsTotal).toBe(EVENTS.length);
    expect(first.recordsTotalIsExact).toBe(true);
    const seen = new Set(first.data.map((a) => a.id));
    let cursor = first.next_cursor;
    let previousTime = first.data.at(-1)?.time ?? '';
    while (cursor) {
      const next = await page(`limit=100&before=${cursor}`);
      for (const alert of next.data) {
        expect(seen.has(alert.id)).toBe(false);
        expect(alert.time <= previousTime).toBe(true);
        seen.add(alert.id);
        previousTime = alert.time;
      }
      cursor = next.next_cursor;
    }
    expect(seen.size).toBe(EVENTS.length);
    expect(first.data[0]?.device).toBe('dmz-1');
  });

  it('filters by signature, addresses, ports, protocol, severity, device and time', async () => {
    const expectCount = async (
      query: string,
      predicate: (e: Record<string, unknown>) => boolean,
    ) => {
      const result = await page(`limit=1&${query}`);
      expect(result.recordsTotal, query).toBe(EVENTS.filter(predicate).length);
      expect(result.recordsTotal, `${query} matches something`).toBeGreaterThan(0);
    };
    const alertOf = (e: Record<string, unknown>) =>
      e['alert'] as { signature_id: number; signature: string; severity: number };
    const sample = EVENTS[0] ?? {};
    await expectCount(`signature=${firedSid}`, (e) => alertOf(e).signature_id === firedSid);
    const word = alertOf(sample).signature.split(' ').slice(1, 3).join(' ');
    await expectCount(`signature=${encodeURIComponent(word)}`, (e) =>
      alertOf(e).signature.toLowerCase().includes(word.toLowerCase()),
    );
    await expectCount(
      `src_ip=${String(sample['src_ip'])}`,
      (e) => e['src_ip'] === sample['src_ip'],
    );
    await expectCount(
      `dest_ip=${String(sample['dest_ip'])}`,
      (e) => e['dest_ip'] === sample['dest_ip'],
    );
    await expectCount(
      `dest_port=${String(sample['dest_port'])}`,
      (e) => e['dest_port'] === sample['dest_port'],
    );
    await expectCount(
      `proto=${String(sample['proto']).toLowerCase()}`,
      (e) => e['proto'] === sample['proto'],
    );
    await expectCount('severity=3', (e) => alertOf(e).severity <= 3);
    await expectCount(`device_id=${deviceId}`, () => true);
    expect((await page('limit=1&until=2000-01-01T00:00:00Z')).recordsTotal).toBe(0);
    expect((await call('GET', '/alerts/?src_port=99999')).statusCode).toBe(422);
  });

  it('groups by signature with counts and first/last seen, and draws a histogram', async () => {
    const groups = (await call('GET', '/alerts/groups')).json<{
      data: { sid: number; count: number; first_seen: string; last_seen: string }[];
    }>();
    expect(groups.data.reduce((sum, g) => sum + g.count, 0)).toBe(EVENTS.length);
    const top = groups.data[0];
    expect(top?.count).toBe(Math.max(...groups.data.map((g) => g.count)));
    expect((top?.first_seen ?? '') <= (top?.last_seen ?? '')).toBe(true);
    const response = await call('GET', '/alerts/histogram?buckets=24');
    expect(response.statusCode, response.body).toBe(200);
    const histogram = response.json<{ interval: number; data: { count: number }[] }>();
    expect(histogram.data.reduce((sum, b) => sum + b.count, 0)).toBe(EVENTS.length);
    expect(histogram.data.length).toBeLessThanOrEqual(24);
  });

  it('shows an alert with its full event and the rule that fired, and acknowledges it', async () => {
    const [newest] = (await page(`limit=1&signature=${firedSid}`)).data;
    const detail = (await call('GET', `/alerts/${newest?.id}`)).json<{
      event: { alert: { signature_id: number } };
      rule: { text: string } | null;
      policy_id: number;
    }>();
    expect(detail.event.alert.signature_id).toBe(firedSid);
    expect(detail.rule?.text).toContain(`sid:${firedSid}`);
    expect(detail.policy_id).toBe(policyId);
    await call('POST', '/alerts/ack', { ids: [newest?.id] });
    expect((await page('limit=1&acknowledged=true')).data[0]?.id).toBe(newest?.id);
    expect((await page('limit=1&acknowledged=false')).recordsTotal).toBe(EVENTS.length - 1);
  });

  it('tunes from an alert: disabling the rule or suppressing the source changes the policy a device gets', async () => {
    const [alert] = (await page(`limit=1&signature=${firedSid}`)).data;
    const before = (await call('GET', `/policies/${policyId}/render`)).json<{
      version: number;
      rules: string;
    }>();
    expect(before.rules).toContain(`sid:${firedSid}`);
    const suppressed = await call('POST', `/alerts/${alert?.id}/tune`, {
      action: 'suppress_source',
    });
    expect(suppressed.json<{ policy_version: number }>().policy_version).toBe(before.version + 1);
    const mid = (await call('GET', `/policies/${policyId}/render`)).json<{ thresholds: string }>();
    expect(mid.thresholds).toContain(
      `suppress gen_id 1, sig_id ${firedSid}, track by_src, ip ${alert?.src_ip}`,
    );

    const disabled = await call('POST', `/alerts/${alert?.id}/tune`, { action: 'disable_rule' });
    expect(disabled.statusCode).toBe(200);
    const after = (await call('GET', `/policies/${policyId}/render`)).json<{
      version: number;
      rules: string;
    }>();
    expect(after.rules).not.toContain(`sid:${firedSid}`);
    expect(after.version).toBe(before.version + 2);
    expect(
      (await call('GET', `/devices/${deviceId}`)).json<{ update_pending: boolean }>()
        .update_pending,
    ).toBe(true);
  });

  it('is walled off per organization and refuses tuning to Viewers', async () => {
    const [alert] = (await page('limit=1')).data;
    const other = await signInOtherOrganization(server.app);
    expect((await call('GET', '/alerts/', undefined, other)).json<Page>().recordsTotal).toBe(0);
    expect((await call('GET', `/alerts/${alert?.id}`, undefined, other)).statusCode).toBe(404);
    await call('POST', '/users/', {
      email: 'v@example.com',
      password: 'Viewer#2026',
      role: 'Viewer',
    });
    const viewer = await signIn(server.app, 'v@example.com', 'Viewer#2026');
    expect(
      (await call('POST', `/alerts/${alert?.id}/tune`, { action: 'suppress_source' }, viewer))
        .statusCode,
    ).toBe(403);
    expect((await call('POST', '/alerts/ack', { ids: [alert?.id] }, viewer)).statusCode).toBe(403);
  });

  it('tells a connected console live when alerts arrive', async () => {
    const events = await consoleEvents(server.app, admin);
    const next = EVENTS.length / 200 + 2;
    await api(server.app, {
      method: 'POST',
      url: '/agent/alerts',
      headers: agent,
      payload: { seq: Math.ceil(next), events: EVENTS.slice(0, 1) },
    });
    expect(await events.count('alerts', 1)).toBeGreaterThanOrEqual(1);
    events.close();
  });

  it('ages out alerts past their retention', async () => {
    const total = (await page('limit=1')).recordsTotal;
    const deleted = await applyRetention(
      server.db,
      { alertRetentionDays: 1, metricRetentionDays: 1 },
      new Date(),
    );
    expect(deleted['device_alerts']).toBe(total);
    expect((await page('limit=1')).recordsTotal).toBe(0);
  });
});

describe('alert queries on a large generated set', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    const [org] = await server.db.query<{ id: number }>('SELECT id FROM organizations LIMIT 1');
    await server.db.query(
      `INSERT INTO devices (org_id, name, password_hash) SELECT $1, 'gen-' || g, 'x' FROM generate_series(1, 20) g`,
      [org?.id ?? 1],
    );
    // Today's and yesterday's partitions, and the default one for older alerts.
    await applyRetention(server.db, { alertRetentionDays: 90, metricRetentionDays: 90 });
    await server.db.query(
      `INSERT INTO device_alerts (org_id, device_id, time, gid, sid, msg, severity, proto, src_ip, src_port, dest_ip, dest_port, event)
       SELECT $1, d.id, now() - (g * interval '1 second'), 1, 2000000 + (g % 500), 'generated ' || (g % 500), 1 + g % 3,
              'TCP', '10.0.' || (g % 250) || '.' || (g % 200), 1024 + g % 60000, '192.168.1.' || (g % 250), 80, '{}'::jsonb
         FROM generate_series(1, 200000) g JOIN LATERAL (SELECT id FROM devices WHERE name = 'gen-' || (1 + g % 20)) d ON true`,
      [org?.id ?? 1],
    );
    await server.db.query('ANALYZE device_alerts');
  }, 300_000);
  afterAll(() => server.close());

  const plan = async (sql: string, params: unknown[]) =>
    (await server.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params as never[]))
      .map((r) => r['QUERY PLAN'])
      .join('\n');

  it('reads the newest page and deep keyset pages through the (org, time) index', async () => {
    const newest = await plan(
      'SELECT id FROM device_alerts a WHERE a.org_id = $1 ORDER BY a.time DESC, a.id DESC LIMIT 100',
      [1],
    );
    // Each day partition's copy of device_alerts_org_time.
    expect(newest).toMatch(/device_alerts_\w+_org_id_time_id_\w*idx/);
    expect(newest).not.toMatch(/Seq Scan on device_alerts/);
    const deep = await plan(
      `SELECT id FROM device_alerts a WHERE a.org_id = $1 AND (a.time, a.id) < (now() - interval '150000 seconds', 0)
        ORDER BY a.time DESC, a.id DESC LIMIT 100`,
      [1],
    );
    expect(deep).toMatch(/device_alerts_\w+_org_id_time_id_\w*idx/);
  });

  it('finds a signature, a source and a device without scanning the table', async () => {
    for (const [sql, index] of [
      [
        'SELECT id FROM device_alerts a WHERE a.org_id = $1 AND a.sid = 2000007 ORDER BY a.time DESC LIMIT 100',
        /device_alerts_\w+_org_id_sid_time_id_\w*idx/,
      ],
      [
        "SELECT id FROM device_alerts a WHERE a.org_id = $1 AND a.src_ip = '10.0.7.7' ORDER BY a.time DESC LIMIT 100",
        /device_alerts_\w+_org_id_src_ip_time_id_idx/,
      ],
      [
        'SELECT id FROM device_alerts a WHERE a.org_id = $1 AND a.device_id = 3 ORDER BY a.time DESC LIMIT 100',
        /device_alerts_\w+_device_id_time_id_\w*idx/,
      ],
    ] as const) {
      const text = await plan(sql, [1]);
      expect(text, sql).toMatch(index);
      expect(text, sql).not.toMatch(/Seq Scan on device_alerts/);
    }
  });
});
