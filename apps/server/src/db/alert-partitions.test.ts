import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, splitStatements } from './migrate.js';
import { applyRetention } from '../plugins/retention.js';
import { maintainAlertPartitions } from './alert-partitions.js';
import { noteStoredAlerts } from '../modules/alerts/alerts.service.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  createScratchDatabase,
  signIn,
  startTestServer,
  type TestServer,
} from '../test/harness.js';

const PARTITIONING = '20261125220000_alerts_partitioned';

describe('alert day partitions', () => {
  let server: TestServer;
  let orgId: number;
  let deviceId: number;

  beforeAll(async () => {
    server = await startTestServer();
    const [org] = await server.db.query<{ id: number }>('SELECT id FROM organizations LIMIT 1');
    orgId = org?.id ?? 1;
    const [device] = await server.db.query<{ id: number }>(
      `INSERT INTO devices (org_id, name, password_hash) VALUES ($1, 'partitioned', 'x') RETURNING id`,
      [orgId],
    );
    deviceId = device?.id ?? 0;
  });
  afterAll(() => server.close());

  /** One alert an hour over [from, to). */
  const insertHourly = (from: string, to: string) =>
    server.db.query(
      `INSERT INTO device_alerts (org_id, device_id, time, sid, event)
       SELECT $1, $2, t, 2000001, '{}'::jsonb
         FROM generate_series($3::timestamptz, $4::timestamptz - interval '1 hour', interval '1 hour') t`,
      [orgId, deviceId, from, to],
    );
  const rowsPerPartition = async () =>
    Object.fromEntries(
      (
        await server.db.query<{ part: string; n: number }>(
          `SELECT tableoid::regclass::text AS part, count(*)::int AS n FROM device_alerts GROUP BY 1`,
        )
      ).map((r) => [r.part, r.n]),
    );

  it("has yesterday's to three days ahead's partitions from the start, before retention runs", async () => {
    const today = Math.floor(Date.now() / 86_400_000) * 86_400_000;
    const days = [-1, 0, 1, 2, 3].map((offset) =>
      new Date(today + offset * 86_400_000).toISOString().slice(0, 10).replaceAll('-', ''),
    );
    const [jobs] = await server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM scheduled_jobs WHERE name = 'retention'`,
    );
    expect(jobs?.n).toBe(0);
    const present = await server.db.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent IN ('device_alerts'::regclass, 'alert_rollup'::regclass)`,
    );
    const names = present.map((row) => row.name);
    for (const day of days) {
      expect(names).toContain(`device_alerts_p${day}`);
      expect(names).toContain(`alert_rollup_p${day}`);
    }
  });

  it('creates the coming days, drops past days whole and trims only the default', async () => {
    const first = await applyRetention(
      server.db,
      { alertRetentionDays: 30, metricRetentionDays: 30 },
      new Date('2030-01-01T12:00:00Z'),
    );
    expect(first['device_alert_days_created']).toBe(5); // 2029-12-31 to 2030-01-04
    await insertHourly('2029-12-30T00:00:00Z', '2030-01-05T00:00:00Z');
    expect(await rowsPerPartition()).toEqual({
      device_alerts_default: 24,
      device_alerts_p20291231: 24,
      device_alerts_p20300101: 24,
      device_alerts_p20300102: 24,
      device_alerts_p20300103: 24,
      device_alerts_p20300104: 24,
    });

    const second = await applyRetention(
      server.db,
      { alertRetentionDays: 1, metricRetentionDays: 30 },
      new Date('2030-01-03T12:00:00Z'),
    );
    // The cutoff (2030-01-02 12:00) falls inside 2030-01-02: that day stays until it is all past.
    expect(second['device_alert_days_dropped']).toBe(2);
    expect(second['device_alerts']).toBe(24);
    expect(second['device_alert_days_created']).toBe(2);
    expect(await rowsPerPartition()).toEqual({
      device_alerts_p20300102: 24,
      device_alerts_p20300103: 24,
      device_alerts_p20300104: 24,
    });
  });

  it("finds a dropped day's per-device counts by their day, not by reading every day", async () => {
    const plan = await server.db.transaction(async (tx) => {
      // However few rows the test has: which index can serve the delete, not whether it pays.
      await tx.query('SET LOCAL enable_seqscan = off');
      return tx.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN DELETE FROM alert_device_days WHERE day = '2030-01-01'::date`,
      );
    });
    const text = plan.map((row) => row['QUERY PLAN']).join('\n');
    expect(text).toMatch(/alert_device_days_day/);
    expect(text).toMatch(/Index Cond: \(day = /);
  });

  it('counts a histogram across day partitions, each bucket exact', async () => {
    const headers = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const response = await api(server.app, {
      method: 'GET',
      url: '/alerts/histogram?buckets=4&since=2030-01-02T06:00:00Z&until=2030-01-04T06:00:00Z',
      headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    const histogram = response.json<{
      interval: number;
      data: { time: string; count: number }[];
    }>();
    expect(histogram.interval).toBe(43_200);
    // One alert an hour, 12 hours a bucket, the buckets' edges inside days.
    expect(histogram.data.map((b) => b.count)).toEqual([12, 12, 12, 12]);
  });

  it("moves a day's early alerts out of the default partition when its partition is made", async () => {
    await insertHourly('2030-01-09T00:00:00Z', '2030-01-09T03:00:00Z');
    const [early] = await server.db.query<{ id: string; part: string }>(
      `SELECT id::text, tableoid::regclass::text AS part FROM device_alerts
        WHERE time = '2030-01-09T01:00:00Z'`,
    );
    expect(early?.part).toBe('device_alerts_default');
    await applyRetention(
      server.db,
      { alertRetentionDays: 30, metricRetentionDays: 30 },
      new Date('2030-01-07T12:00:00Z'),
    );
    const [moved] = await server.db.query<{ id: string; part: string }>(
      `SELECT id::text, tableoid::regclass::text AS part FROM device_alerts
        WHERE time = '2030-01-09T01:00:00Z'`,
    );
    expect(moved).toEqual({ id: early?.id, part: 'device_alerts_p20300109' });
    expect((await rowsPerPartition())['device_alerts_default']).toBeUndefined();
  });

  it.skipIf(process.env['TEST_DB'] !== 'postgres')(
    'makes a day while a batch that claimed its device stores alerts of it (PostgreSQL server only: PGlite runs one transaction at a time)',
    async () => {
      let maintenance: Promise<{ created: number; dropped: number }> | undefined;
      // As alert ingest does: the device's row first (its batch claim), then the alerts.
      await server.db.transaction(async (tx) => {
        await tx.query('UPDATE devices SET alerts_ack = alerts_ack + 1 WHERE id = $1', [deviceId]);
        maintenance = maintainAlertPartitions(server.db, {
          now: new Date('2031-03-10T12:00:00Z'),
          cutoff: new Date('2000-01-01T00:00:00Z'),
          lock: () => Promise.resolve(true),
        });
        const deadline = Date.now() + 10_000;
        for (let waiting = 0; waiting === 0 && Date.now() < deadline;) {
          const [row] = await server.db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted',
          );
          waiting = row?.n ?? 0;
        }
        await tx.query(
          `INSERT INTO device_alerts (org_id, device_id, time, sid, event)
           VALUES ($1, $2, '2031-03-10T01:00:00Z', 2000001, '{}'::jsonb)`,
          [orgId, deviceId],
        );
      });
      await expect(maintenance).resolves.toEqual({ created: 5, dropped: 0 });
      const [stored] = await server.db.query<{ part: string }>(
        `SELECT tableoid::regclass::text AS part FROM device_alerts
          WHERE time = '2031-03-10T01:00:00Z'`,
      );
      expect(stored?.part).toBe('device_alerts_p20310310');
    },
  );

  it('finds alerts by signature text through the catalogue, with or without an id', async () => {
    const stored = await server.db.query<{
      time: Date;
      gid: number | null;
      sid: number | null;
      severity: number | null;
      msg: string | null;
    }>(
      `INSERT INTO device_alerts (org_id, device_id, time, gid, sid, msg, event)
       VALUES ($1, $2, now(), 1, 2100001, 'ET MALWARE Catalogued one', '{}'::jsonb),
              ($1, $2, now(), 1, 2100001, 'ET MALWARE Catalogued one (renamed)', '{}'::jsonb),
              ($1, $2, now(), 1, 2100002, 'ET SCAN other', '{}'::jsonb),
              ($1, $2, now(), NULL, NULL, 'catalogued without id', '{}'::jsonb)
       RETURNING time, gid, sid::int, severity, msg`,
      [orgId, deviceId],
    );
    await noteStoredAlerts(server.db, [
      { orgId, deviceId, alerts: stored.map((row) => ({ ...row, time: row.time.toISOString() })) },
    ]);
    const headers = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const found = async (text: string) => {
      const response = await api(server.app, {
        method: 'GET',
        url: `/alerts/?signature=${encodeURIComponent(text)}`,
        headers,
      });
      expect(response.statusCode).toBe(200);
      return response
        .json<{ data: { msg: string }[] }>()
        .data.map((a) => a.msg)
        .sort();
    };
    expect(await found('catalogued')).toEqual([
      'ET MALWARE Catalogued one',
      'ET MALWARE Catalogued one (renamed)',
      'catalogued without id',
    ]);
    expect(await found('(renamed)')).toEqual(['ET MALWARE Catalogued one (renamed)']);
    expect(await found('no such text')).toEqual([]);
  });

  it('gives every alert its own id across partitions', async () => {
    const [ids] = await server.db.query<{ all: number; distinct: number }>(
      'SELECT count(*)::int AS all, count(DISTINCT id)::int AS distinct FROM device_alerts',
    );
    expect(ids?.all).toBeGreaterThan(0);
    expect(ids?.distinct).toBe(ids?.all);
  });
});

describe('the partitioning migration', () => {
  it('keeps existing alerts, their ids, and ids after them unique', async () => {
    const scratch = await createScratchDatabase();
    const db = scratch.db;
    try {
      // The schema as it was just before the partitioning, holding alerts.
      const dir = fileURLToPath(new URL('./migrations/', import.meta.url));
      const earlier = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
      await db.query(
        'CREATE TABLE schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      for (const file of earlier) {
        const version = file.replace(/\.sql$/, '');
        if (version >= PARTITIONING) break;
        for (const statement of splitStatements(await readFile(dir + file, 'utf8')))
          await db.query(statement);
        await db.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
      }
      const [org] = await db.query<{ id: number }>(
        `INSERT INTO organizations (name) VALUES ('legacy') RETURNING id`,
      );
      const [device] = await db.query<{ id: number }>(
        `INSERT INTO devices (org_id, name, password_hash) VALUES ($1, 'old', 'x') RETURNING id`,
        [org?.id],
      );
      // Yesterday, today, and a replayed capture from long ago.
      await db.query(
        `INSERT INTO device_alerts (org_id, device_id, time, sid, msg, event)
         SELECT $1, $2, t, 1, 'legacy signature', '{}'::jsonb
           FROM unnest(ARRAY[now() - interval '1 day', now(), now(), '2001-02-03T04:05:06Z']::timestamptz[]) t`,
        [org?.id, device?.id],
      );
      const before = await db.query<{ id: string }>(
        'SELECT id::text FROM device_alerts ORDER BY id',
      );

      expect(await migrate(db)).toContain(PARTITIONING);

      const after = await db.query<{ id: string; part: string }>(
        'SELECT id::text, tableoid::regclass::text AS part FROM device_alerts ORDER BY id',
      );
      expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
      expect(after.at(-1)?.part).toBe('device_alerts_default');
      expect(after.slice(0, 3).every((r) => /^device_alerts_p\d{8}$/.test(r.part))).toBe(true);
      // The signature catalogue starts with the signatures already stored.
      expect(await db.query('SELECT sid::int, msg FROM alert_signatures')).toEqual([
        { sid: 1, msg: 'legacy signature' },
      ]);
      // So does the rollup, with their hours (the old capture's in the default partition).
      expect(
        await db.query(
          `SELECT tableoid::regclass::text = 'alert_rollup_default' AS old, sum(count)::int AS n
             FROM alert_rollup GROUP BY 1 ORDER BY 1`,
        ),
      ).toEqual([
        { old: false, n: 3 },
        { old: true, n: 1 },
      ]);
      const [fresh] = await db.query<{ id: string }>(
        `INSERT INTO device_alerts (org_id, device_id, time, event)
         VALUES ($1, $2, now(), '{}'::jsonb) RETURNING id::text`,
        [org?.id, device?.id],
      );
      expect(BigInt(fresh?.id ?? 0)).toBeGreaterThan(BigInt(before.at(-1)?.id ?? 0));
    } finally {
      await scratch.drop();
    }
  });
});
