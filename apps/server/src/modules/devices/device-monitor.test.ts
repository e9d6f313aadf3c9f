import { MONITOR_MAX_POINTS } from '@palisade/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { bucketSeconds } from './device-monitor.js';

interface Monitor {
  device_id: number;
  bucket_seconds: number | null;
  data: {
    time: string;
    cpu: number;
    memory_used: number;
    memory_total: number;
    disk_used: number;
    net_in: number;
    net_out: number;
  }[];
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

describe('bucketSeconds', () => {
  it('picks the narrowest round width that keeps a window within the points', () => {
    expect(bucketSeconds(7 * DAY_MS, 500)).toBe(1800);
    expect(bucketSeconds(DAY_MS, 500)).toBe(300);
    expect(bucketSeconds(6 * HOUR_MS, 500)).toBe(60);
    expect(bucketSeconds(0, 500)).toBe(1);
    expect(bucketSeconds(400 * DAY_MS, 500)).toBe(86_400);
    expect(bucketSeconds(800 * DAY_MS, 500)).toBe(2 * 86_400);
    for (const windowMs of [HOUR_MS, 7 * DAY_MS, 123_456_789])
      for (const points of [1, 2, 50, 500]) {
        const seconds = bucketSeconds(windowMs, points);
        // Epoch-aligned buckets a window touches, at worst.
        expect(Math.floor(windowMs / 1000 / seconds) + 1).toBeLessThanOrEqual(Math.max(points, 2));
      }
  });
});

describe('device monitor', () => {
  let server: TestServer;
  let admin: { authorization: string };
  let deviceId: number;

  const monitor = async (windowMs: number, extra = '') => {
    const since = new Date(Date.now() - windowMs).toISOString();
    const response = await api(server.app, {
      method: 'GET',
      url: `/devicemonitor/${deviceId}?since=${encodeURIComponent(since)}${extra}`,
      headers: admin,
    });
    expect(response.statusCode).toBe(200);
    return response.json<Monitor>();
  };

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    deviceId = (
      await api(server.app, {
        method: 'POST',
        url: '/devices/',
        headers: admin,
        payload: { name: 'busy-sensor', password: 'device-secret-1234' },
      })
    ).json<{ id: number }>().id;
    // Seven days and a bit of heartbeats every 30 s (~20,000 samples), on the 30 s grid: cpu
    // alternates 10 and 30, net_in climbs 0…1770 within each half hour, memory is constant.
    await server.db.query(
      `INSERT INTO device_metrics (device_id, time, cpu, memory_used, memory_total, disk_used,
                                   disk_total, net_in, net_out)
       SELECT $1, t, CASE WHEN (extract(epoch FROM t)::bigint / 30) % 2 = 0 THEN 10 ELSE 30 END,
              4000000000, 8000000000, 100000, 200000,
              extract(epoch FROM t)::bigint % 1800, 5
         FROM generate_series(
                date_bin(INTERVAL '30 seconds', now() - INTERVAL '7 days 1 hour',
                         TIMESTAMPTZ '1970-01-01 00:00:00+00'),
                now(), INTERVAL '30 seconds') AS t`,
      [deviceId],
    );
  });

  afterAll(() => server.close());

  it('averages a 7-day window into at most MONITOR_MAX_POINTS ordered buckets', async () => {
    const week = await monitor(7 * DAY_MS, '&limit=100000');
    expect(week.bucket_seconds).toBe(1800);
    expect(week.data.length).toBeGreaterThan(300);
    expect(week.data.length).toBeLessThanOrEqual(MONITOR_MAX_POINTS);
    const times = week.data.map((p) => Date.parse(p.time));
    times.forEach((time, i) => {
      expect(time % 1_800_000).toBe(0);
      if (i > 0) expect(time - (times[i - 1] ?? 0)).toBe(1_800_000);
    });
    // Every bucket but the partial first and last holds 60 whole samples.
    for (const point of week.data.slice(1, -1)) {
      expect(point.cpu).toBeCloseTo(20, 5);
      expect(point.net_in).toBeCloseTo(885, 5);
      expect(point).toMatchObject({ memory_used: 4e9, memory_total: 8e9, net_out: 5 });
      expect(Number.isInteger(point.disk_used)).toBe(true);
    }
  });

  it('answers the default number of points when no limit is given', async () => {
    const day = await monitor(DAY_MS);
    expect(day.bucket_seconds).toBe(300);
    expect(day.data.length).toBeLessThanOrEqual(MONITOR_MAX_POINTS);
    expect(day.data.slice(1, -1).every((p) => Math.abs(p.cpu - 20) < 1e-5)).toBe(true);
  });

  it('answers raw samples when the window holds few enough', async () => {
    const hour = await monitor(HOUR_MS);
    expect(hour.bucket_seconds).toBeNull();
    expect(hour.data.length).toBeGreaterThanOrEqual(119);
    expect(hour.data.length).toBeLessThanOrEqual(121);
    expect(new Set(hour.data.map((p) => p.cpu))).toEqual(new Set([10, 30]));
    const times = hour.data.map((p) => Date.parse(p.time));
    times.forEach((time, i) => i > 0 && expect(time - (times[i - 1] ?? 0)).toBe(30_000));
  });

  it('buckets a short window when asked for fewer points than it has samples', async () => {
    const hour = await monitor(HOUR_MS, '&limit=50');
    expect(hour.bucket_seconds).toBe(120);
    expect(hour.data.length).toBeLessThanOrEqual(50);
    expect(hour.data.slice(1, -1).every((p) => p.cpu === 20)).toBe(true);
  });

  // The samples have no foreign key to their device (it cost each heartbeat a query): a trigger
  // deletes them with it, whether the device is deleted alone or with its organization.
  it("deletes a device's samples with the device, alone or with its organization", async () => {
    const samplesOf = async (id: number) =>
      (
        await server.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM device_metrics WHERE device_id = $1',
          [id],
        )
      )[0]?.n;
    const addSamples = (id: number) =>
      server.db.query(
        `INSERT INTO device_metrics (device_id, time, cpu, memory_used, memory_total, disk_used,
                                     disk_total, net_in, net_out)
         SELECT $1, now() - g * INTERVAL '30 seconds', 5, 1, 2, 1, 2, 0, 0
           FROM generate_series(1, 10) AS g`,
        [id],
      );
    const leaving = (
      await api(server.app, {
        method: 'POST',
        url: '/devices/',
        headers: admin,
        payload: { name: 'leaving-sensor', password: 'device-secret-1234' },
      })
    ).json<{ id: number }>().id;
    await addSamples(leaving);
    const before = await samplesOf(deviceId);
    const removed = await api(server.app, {
      method: 'DELETE',
      url: `/devices/${leaving}`,
      headers: admin,
    });
    expect(removed.statusCode).toBeLessThan(300);
    expect(await samplesOf(leaving)).toBe(0);
    expect(await samplesOf(deviceId)).toBe(before);

    const [org] = await server.db.query<{ id: number }>(
      "INSERT INTO organizations (name) VALUES ('Closing down') RETURNING id",
    );
    const [device] = await server.db.query<{ id: number }>(
      "INSERT INTO devices (org_id, name, password_hash) VALUES ($1, 'last-sensor', 'x') RETURNING id",
      [org?.id],
    );
    await addSamples(device?.id ?? 0);
    expect(await samplesOf(device?.id ?? 0)).toBe(10);
    await server.db.query('DELETE FROM organizations WHERE id = $1', [org?.id]);
    expect(await samplesOf(device?.id ?? 0)).toBe(0);
    expect(await samplesOf(deviceId)).toBe(before);
  });
});
