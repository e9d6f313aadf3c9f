import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRetention } from '../../plugins/retention.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

type Headers = { authorization: string };
interface Stored {
  id: string;
  org_id: number;
  severity: number;
  src_ip: string;
  day: string;
  acknowledged: boolean;
  starred: boolean;
}
interface BulkResult {
  count: number;
  dry_run: boolean;
}

/**
 * Bulk triage over every alert matching a filter (issue 19 item 3): the dry run's count is what
 * the request then changes, across day partitions, in the caller's organization only.
 */
describe('alert bulk triage', () => {
  let server: TestServer;
  let admin: Headers;
  let other: Headers;
  let otherOrg: number;

  const bulk = (body: object, headers: Headers = admin) =>
    api(server.app, { method: 'POST', url: '/alerts/bulk', headers, payload: body });
  const stored = () =>
    server.db.query<Stored>(
      `SELECT id::text, org_id, severity, src_ip, to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
              acknowledged_at IS NOT NULL AS acknowledged, starred_at IS NOT NULL AS starred
         FROM device_alerts ORDER BY id`,
    );
  const audited = (action: string) =>
    server.db.query<{ after: Record<string, unknown>; org_id: number }>(
      `SELECT after, org_id FROM audit_log WHERE object_type = 'alert' AND action = $1 ORDER BY id`,
      [action],
    );

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    await api(server.app, {
      method: 'POST',
      url: '/users/open',
      payload: { email: 'o@b.example', password: 'Other#2026', organization: 'B' },
    });
    other = await signIn(server.app, 'o@b.example', 'Other#2026');
    const orgs = await server.db.query<{ id: number; name: string }>(
      'SELECT id, name FROM organizations ORDER BY id',
    );
    otherOrg = orgs.find((o) => o.name === 'B')?.id ?? 0;
    // Day partitions 2029-12-31 to 2030-01-04; 2029-12-30 lands in the default partition.
    await applyRetention(
      server.db,
      { alertRetentionDays: 3650, metricRetentionDays: 30 },
      new Date('2030-01-01T12:00:00Z'),
    );
    for (const org of orgs) {
      const [device] = await server.db.query<{ id: number }>(
        `INSERT INTO devices (org_id, name, password_hash) VALUES ($1, 'bulk', 'x') RETURNING id`,
        [org.id],
      );
      // One alert every 20 minutes over four days: severities 1-3, sources 10.0.0.0-3.
      await server.db.query(
        `INSERT INTO device_alerts (org_id, device_id, time, sid, msg, severity, src_ip, proto, event)
         SELECT $1, $2, t, 2000001, 'ET bulk', 1 + (n % 3), '10.0.0.' || (n % 4), 'TCP', '{}'::jsonb
           FROM generate_series($3::timestamptz, $4::timestamptz, interval '20 minutes')
                WITH ORDINALITY AS s(t, n)`,
        [org.id, device?.id, '2029-12-30T00:00:00Z', '2030-01-02T23:40:00Z'],
      );
    }
  });
  afterAll(() => server.close());

  it('acknowledges every matching alert across day partitions, the count confirmed first', async () => {
    const before = await stored();
    const ours = before.filter((a) => a.org_id !== otherOrg);
    const expected = ours.filter((a) => a.severity <= 2 && a.src_ip === '10.0.0.1');
    // The filter spans the default partition and three day partitions.
    expect(new Set(expected.map((a) => a.day)).size).toBe(4);
    const filter = { severity: 2, src_ip: '10.0.0.1' };

    const dry = await bulk({ filter, action: 'acknowledge', dry_run: true });
    expect(dry.statusCode).toBe(200);
    expect(dry.json<BulkResult>()).toMatchObject({ count: expected.length, dry_run: true });
    // A dry run changes nothing and records nothing.
    expect(await stored()).toEqual(before);
    expect(await audited('acknowledge')).toEqual([]);

    const done = await bulk({ filter, action: 'acknowledge' });
    expect(done.json<BulkResult>()).toMatchObject({ count: expected.length, dry_run: false });
    const after = await stored();
    const ids = new Set(expected.map((a) => a.id));
    for (const alert of after) expect(alert.acknowledged).toBe(ids.has(alert.id));
    // The other organization has the same alerts, none touched.
    expect(after.filter((a) => a.org_id === otherOrg && a.acknowledged)).toEqual([]);

    // One audit record for the request, with its count and filter.
    const records = await audited('acknowledge');
    expect(records).toHaveLength(1);
    expect(records[0]?.after).toMatchObject({ acknowledged: true, count: expected.length, filter });

    // Again: nothing left to acknowledge, and the dry run says so.
    expect(
      (await bulk({ filter, action: 'acknowledge', dry_run: true })).json<BulkResult>().count,
    ).toBe(0);
    expect((await bulk({ filter, action: 'acknowledge' })).json<BulkResult>().count).toBe(0);
  });

  it('reopens within a time window only', async () => {
    const filter = {
      acknowledged: 'true',
      since: '2030-01-01T00:00:00Z',
      until: '2030-01-02T00:00:00Z',
    };
    const open = (await stored()).filter(
      (a) => a.org_id !== otherOrg && a.acknowledged && a.day === '2030-01-01',
    );
    expect(open.length).toBeGreaterThan(0);
    expect((await bulk({ filter, action: 'reopen', dry_run: true })).json<BulkResult>().count).toBe(
      open.length,
    );
    expect((await bulk({ filter, action: 'reopen' })).json<BulkResult>().count).toBe(open.length);
    const after = await stored();
    expect(after.filter((a) => a.acknowledged && a.day === '2030-01-01')).toEqual([]);
    expect(after.filter((a) => a.acknowledged && a.day === '2030-01-02').length).toBeGreaterThan(0);
  });

  it('stars alerts, which the list then filters on', async () => {
    const expected = (await stored()).filter((a) => a.org_id !== otherOrg && a.severity === 1);
    const done = await bulk({ filter: { severity: 1 }, action: 'star' });
    expect(done.json<BulkResult>().count).toBe(expected.length);
    const page = await api(server.app, {
      method: 'GET',
      url: '/alerts/?starred=true&limit=5000',
      headers: admin,
    });
    const listed = page.json<{ data: { id: number; starred: boolean }[]; recordsTotal: number }>();
    expect(listed.recordsTotal).toBe(expected.length);
    expect(listed.data.every((a) => a.starred)).toBe(true);
    const unstarred = await api(server.app, {
      method: 'GET',
      url: '/alerts/?starred=false&severity=1',
      headers: admin,
    });
    expect(unstarred.json<{ recordsTotal: number }>().recordsTotal).toBe(0);
    expect(
      (await bulk({ filter: { starred: 'true' }, action: 'unstar' })).json<BulkResult>().count,
    ).toBe(expected.length);
  });

  it('comments every matching alert; the comment shows in the alert', async () => {
    const filter = { src_ip: '10.0.0.3', since: '2030-01-02T00:00:00Z' };
    const expected = (await stored()).filter(
      (a) => a.org_id !== otherOrg && a.src_ip === '10.0.0.3' && a.day === '2030-01-02',
    );
    // The count is asked before the text is written; the change itself needs the text.
    const counted = await bulk({ filter, action: 'comment', dry_run: true });
    expect(counted.json<BulkResult>().count).toBe(expected.length);
    const missing = await bulk({ filter, action: 'comment' });
    expect(missing.statusCode).toBe(422);
    expect(JSON.stringify(missing.json())).toContain('comment');
    const done = await bulk({ filter, action: 'comment', comment: 'scanner, ticket 42' });
    expect(done.json<BulkResult>().count).toBe(expected.length);
    const detail = await api(server.app, {
      method: 'GET',
      url: `/alerts/${expected[0]?.id}`,
      headers: admin,
    });
    expect(detail.json<{ comments: { body: string; author: string }[] }>().comments).toEqual([
      expect.objectContaining({ body: 'scanner, ticket 42', author: ADMIN_EMAIL }),
    ]);
    const [record] = await audited('comment');
    expect(record?.after).toMatchObject({ count: expected.length, comment: 'scanner, ticket 42' });
  });

  it('refuses a Viewer, even a dry run, and keeps each organization to its own', async () => {
    await api(server.app, {
      method: 'POST',
      url: '/users/',
      headers: admin,
      payload: { email: 'v@example.com', password: 'Viewer#2026', role: 'Viewer' },
    });
    const viewer = await signIn(server.app, 'v@example.com', 'Viewer#2026');
    const before = await stored();
    expect((await bulk({ action: 'acknowledge' }, viewer)).statusCode).toBe(403);
    expect((await bulk({ action: 'acknowledge', dry_run: true }, viewer)).statusCode).toBe(403);
    // The other organization's administrator acknowledges all of theirs, and only theirs.
    const theirs = before.filter((a) => a.org_id === otherOrg);
    expect((await bulk({ action: 'acknowledge' }, other)).json<BulkResult>().count).toBe(
      theirs.length,
    );
    const after = await stored();
    for (const alert of after)
      if (alert.org_id !== otherOrg)
        expect(alert.acknowledged).toBe(before.find((a) => a.id === alert.id)?.acknowledged);
    expect(after.filter((a) => a.org_id === otherOrg).every((a) => a.acknowledged)).toBe(true);
  });

  it('names a bad filter in a 422', async () => {
    const response = await bulk({ filter: { severity: 'high' }, action: 'acknowledge' });
    expect(response.statusCode).toBe(422);
    expect(JSON.stringify(response.json())).toContain('severity');
    expect((await bulk({ action: 'archive' })).statusCode).toBe(422);
  });
});
