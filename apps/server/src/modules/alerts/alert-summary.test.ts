import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

interface Summary {
  interval: number;
  rate: { time: string; counts: number[] }[];
  top_signatures: { sid: number; count: number }[];
  top_sources: { ip: string; count: number }[];
  top_destinations: { ip: string; count: number }[];
}

const minutesAgo = (n: number) =>
  new Date(Date.now() - n * 60_000).toISOString().replace(/Z$/, '+0000');

const alert = (at: string, sid: number, severity: number | null, src: string, dest: string) => ({
  timestamp: at,
  event_type: 'alert',
  src_ip: src,
  src_port: 40000,
  dest_ip: dest,
  dest_port: 80,
  proto: 'TCP',
  alert: {
    action: 'allowed',
    gid: 1,
    signature_id: sid,
    rev: 1,
    signature: `sig ${sid}`,
    severity,
  },
});

describe('the dashboard alert summary', () => {
  let server: TestServer;
  let admin: { authorization: string };

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const password = 'summary-secret-1234';
    const id = (
      await api(server.app, {
        method: 'POST',
        url: '/devices/',
        headers: admin,
        payload: { name: 'dash-1', password },
      })
    ).json<{ id: number }>().id;
    const login = await api(server.app, {
      method: 'POST',
      url: '/agent/login',
      payload: { device_id: id, password },
    });
    const bearer = `Bearer ${login.json<{ access_token: string }>().access_token}`;
    const events = [
      alert(minutesAgo(50), 1001, 1, '203.0.113.9', '10.0.0.5'),
      alert(minutesAgo(40), 1001, 1, '203.0.113.9', '10.0.0.5'),
      alert(minutesAgo(30), 1001, 1, '203.0.113.9', '10.0.0.6'),
      alert(minutesAgo(20), 1002, 2, '198.51.100.7', '10.0.0.5'),
      alert(minutesAgo(10), 1003, null, '198.51.100.7', '10.0.0.5'),
      // Outside the window: counted nowhere.
      alert(minutesAgo(120), 1009, 1, '192.0.2.1', '10.0.0.9'),
    ];
    const stored = await api(server.app, {
      method: 'POST',
      url: '/agent/alerts',
      headers: { authorization: bearer },
      payload: { seq: 1, events },
    });
    expect(stored.json()).toMatchObject({ ack: 1, rejected: [] });
  });
  afterAll(() => server.close());

  it('counts the rate per severity and the top signatures, sources and destinations', async () => {
    const since = new Date(Date.now() - 60 * 60_000).toISOString();
    const response = await api(server.app, {
      method: 'GET',
      url: `/alerts/summary?since=${encodeURIComponent(since)}&buckets=6&top=5`,
      headers: admin,
    });
    expect(response.statusCode).toBe(200);
    const summary = response.json<Summary>();
    expect(summary.rate).toHaveLength(6);
    // Six buckets cover the hour up to now (a second or so more, as the request took).
    expect(summary.interval).toBeGreaterThanOrEqual(600);
    expect(summary.interval).toBeLessThan(620);
    const totals = summary.rate.reduce(
      (sum, b) => sum.map((n, i) => n + (b.counts[i] ?? 0)),
      [0, 0, 0, 0],
    );
    // Severity 1 three times, 2 once, none (counted as 4+) once.
    expect(totals).toEqual([3, 1, 0, 1]);
    const signatures = summary.top_signatures.map((s) => [s.sid, s.count]);
    expect(signatures[0]).toEqual([1001, 3]);
    // A tie keeps no particular order.
    expect(signatures.slice(1)).toEqual(
      expect.arrayContaining([
        [1002, 1],
        [1003, 1],
      ]),
    );
    expect(signatures).toHaveLength(3);
    expect(summary.top_sources).toEqual([
      { ip: '203.0.113.9', count: 3 },
      { ip: '198.51.100.7', count: 2 },
    ]);
    expect(summary.top_destinations).toEqual([
      { ip: '10.0.0.5', count: 4 },
      { ip: '10.0.0.6', count: 1 },
    ]);
  });

  it('names a bad parameter', async () => {
    const response = await api(server.app, {
      method: 'GET',
      url: '/alerts/summary?buckets=0',
      headers: admin,
    });
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain('buckets');
  });
});
