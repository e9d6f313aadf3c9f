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
  msg: string;
  sid: string | null;
  src_ip: string | null;
  dest_ip: string;
  device_id: number;
  time_ms: number;
  severity: number;
}
interface Group {
  sid: number | null;
  msg: string | null;
  src_ip: string | null;
  dest_ip: string | null;
  device_id: number | null;
  device: string | null;
  count: number;
  first_seen: string;
  last_seen: string;
  series: number[];
}
interface Groups {
  start: string | null;
  interval: number;
  data: Group[];
}

/** Groupings by source, destination, device and signature → source (issue 19 item 4). */
describe('alert groupings', () => {
  let server: TestServer;
  let admin: Headers;
  let orgId: number;
  let alerts: Stored[];

  const groups = async (query: string, headers: Headers = admin) => {
    const response = await api(server.app, {
      method: 'GET',
      url: `/alerts/groups/by?${query}`,
      headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Groups>();
  };

  /** The same grouping counted in JS over every stored alert of the organization. */
  const bruteForce = (key: (a: Stored) => string, match: (a: Stored) => boolean = () => true) => {
    const counts = new Map<string, { count: number; first: number; last: number }>();
    for (const a of alerts.filter(match)) {
      const k = key(a);
      const seen = counts.get(k) ?? { count: 0, first: Infinity, last: -Infinity };
      counts.set(k, {
        count: seen.count + 1,
        first: Math.min(seen.first, a.time_ms),
        last: Math.max(seen.last, a.time_ms),
      });
    }
    return counts;
  };

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    await api(server.app, {
      method: 'POST',
      url: '/users/open',
      payload: { email: 'o@b.example', password: 'Other#2026', organization: 'B' },
    });
    const orgs = await server.db.query<{ id: number; name: string }>(
      'SELECT id, name FROM organizations ORDER BY id',
    );
    orgId = orgs.find((o) => o.name !== 'B')?.id ?? 0;
    await applyRetention(
      server.db,
      { alertRetentionDays: 3650, metricRetentionDays: 30 },
      new Date('2030-01-01T12:00:00Z'),
    );
    for (const org of orgs)
      for (const name of ['g-1', 'g-2']) {
        const [device] = await server.db.query<{ id: number }>(
          `INSERT INTO devices (org_id, name, password_hash) VALUES ($1, $2, 'x') RETURNING id`,
          [org.id, name],
        );
        // Uneven counts per key: sources by n % 7 (one in 11 without a source), sids by n % 5.
        await server.db.query(
          `INSERT INTO device_alerts (org_id, device_id, time, sid, msg, severity, src_ip, dest_ip, event)
           SELECT $1, $2, $3::timestamptz + n * interval '7 minutes',
                  CASE WHEN n % 13 = 0 THEN NULL ELSE 2000000 + (n * n) % 5 END,
                  'ET sig ' || (n * n) % 5, 1 + n % 3,
                  CASE WHEN n % 11 = 0 THEN NULL ELSE '10.0.0.' || (n * 3) % 7 END,
                  '192.168.1.' || n % 4, '{}'::jsonb
             FROM generate_series(1, $4::int) AS n`,
          [org.id, device?.id, '2029-12-30T22:00:00Z', name === 'g-1' ? 600 : 250],
        );
      }
    // The signature catalogue that ingest keeps (noteStoredAlerts), for the text search.
    await server.db.query(
      `INSERT INTO alert_signatures (org_id, gid, sid, msg)
       SELECT DISTINCT org_id, gid, sid, msg FROM device_alerts`,
    );
    alerts = await server.db.query<Stored>(
      `SELECT msg, sid::text, src_ip, dest_ip, device_id, severity,
              (extract(epoch FROM time) * 1000)::float8 AS time_ms
         FROM device_alerts WHERE org_id = $1`,
      [orgId],
    );
  });
  afterAll(() => server.close());

  it.each([
    ['signature', (a: Stored) => String(a.sid), (g: Group) => String(g.sid)],
    ['source', (a: Stored) => String(a.src_ip), (g: Group) => String(g.src_ip)],
    ['destination', (a: Stored) => a.dest_ip, (g: Group) => String(g.dest_ip)],
    ['device', (a: Stored) => String(a.device_id), (g: Group) => String(g.device_id)],
  ])('groups by %s as a brute-force count does', async (by, keyOf, keyOfGroup) => {
    const expected = bruteForce(keyOf);
    const answer = await groups(`by=${by}&limit=1000`);
    expect(answer.data).toHaveLength(expected.size);
    for (const group of answer.data) {
      const want = expected.get(keyOfGroup(group));
      expect(want, keyOfGroup(group)).toBeDefined();
      expect(group.count).toBe(want?.count);
      expect(Date.parse(group.first_seen)).toBe(want?.first);
      expect(Date.parse(group.last_seen)).toBe(want?.last);
      // The sparkline covers the whole range: its points add up to the group's count.
      expect(group.series.reduce((sum, n) => sum + n, 0)).toBe(group.count);
    }
    // The largest first.
    const counts = answer.data.map((g) => g.count);
    expect(counts).toEqual([...counts].sort((x, y) => y - x));
  });

  it('names the device and the signature of a group', async () => {
    const devices = await groups('by=device');
    expect(devices.data.map((g) => g.device).sort()).toEqual(['g-1', 'g-2']);
    const signatures = await groups('by=signature&limit=1');
    expect(signatures.data[0]?.msg).toMatch(/^ET sig \d$/);
  });

  it("lists a signature's sources for the two-level view, adding up to its count", async () => {
    const signatures = await groups('by=signature');
    const top = signatures.data.find((g) => g.sid !== null);
    expect(top?.msg).toMatch(/^ET sig \d$/);
    expect(top?.src_ip).toBeNull();
    const sources = await groups(`by=source&signature=${top?.sid}&limit=1000`);
    const expected = bruteForce(
      (a) => String(a.src_ip),
      (a) => a.sid === String(top?.sid),
    );
    expect(sources.data).toHaveLength(expected.size);
    for (const group of sources.data)
      expect(group.count).toBe(expected.get(String(group.src_ip))?.count);
    expect(sources.data.reduce((sum, g) => sum + g.count, 0)).toBe(top?.count);
  });

  it('applies the filters, and draws the sparkline over the filter window', async () => {
    const since = '2029-12-31T00:00:00Z';
    const until = '2030-01-01T00:00:00Z';
    const answer = await groups(`by=source&severity=1&since=${since}&until=${until}&buckets=24`);
    const inWindow = (a: Stored) =>
      a.severity <= 1 && a.time_ms >= Date.parse(since) && a.time_ms < Date.parse(until);
    const expected = bruteForce((a) => String(a.src_ip), inWindow);
    expect(answer.start).toBe('2029-12-31T00:00:00.000Z');
    expect(answer.interval).toBe(3600);
    for (const group of answer.data) {
      expect(group.count).toBe(expected.get(String(group.src_ip))?.count);
      expect(group.series).toHaveLength(24);
      // Each point is that hour's alerts of the group.
      const hourly = Array.from(
        { length: 24 },
        (_, i) =>
          alerts.filter((a) => {
            const offset = Math.floor((a.time_ms - Date.parse(since)) / 3_600_000);
            return inWindow(a) && String(a.src_ip) === String(group.src_ip) && offset === i;
          }).length,
      );
      expect(group.series).toEqual(hourly);
    }
  });

  it.each([
    ['"sig 1" OR "sig 3"', (m: string) => m.endsWith('1') || m.endsWith('3')],
    ['ET -"sig 0" -"sig 4"', (m: string) => !m.endsWith('0') && !m.endsWith('4')],
    ['sig -2 OR nothing', (m: string) => !m.endsWith('2')],
  ])('searches signatures with %s as a brute-force filter does', async (search, matches) => {
    const response = await api(server.app, {
      method: 'GET',
      url: `/alerts/?signature=${encodeURIComponent(search)}&limit=1`,
      headers: admin,
    });
    expect(response.json<{ recordsTotal: number }>().recordsTotal).toBe(
      alerts.filter((a) => matches(a.msg)).length,
    );
  });

  it('keeps to the caller organization, and answers a bad grouping with a 422', async () => {
    const other = await signIn(server.app, 'o@b.example', 'Other#2026');
    const theirs = await groups('by=device', other);
    expect(theirs.data.map((g) => g.device_id)).not.toContain(
      (await groups('by=device')).data[0]?.device_id,
    );
    const bad = await api(server.app, {
      method: 'GET',
      url: '/alerts/groups/by?by=src_ip;DROP',
      headers: admin,
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('by');
  });
});
