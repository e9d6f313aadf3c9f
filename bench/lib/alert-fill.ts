// Fills a scratch PostgreSQL database (migrated by the server) with `total` alerts spread over
// `devices` devices, 3000 signatures and 30 days, straight into day partitions (server-side
// INSERT … SELECT generate_series, indexes built once per day when the day is attached), with
// the hourly rollup and the signature catalogue as ingest would have kept them. Shared by
// bench/alert-store.bench.ts and bench/alert-list.bench.ts.

import type pg from 'pg';

export const SIGNATURES = 3000;
export const DAYS = 30;
export const DAY_MS = 86_400_000;

/** One day's alerts: ids and times in ingest order, a few noisy signatures and devices. */
function fillDaySql(
  table: string,
  dayStart: Date,
  perDay: number,
  firstId: number,
  orgId: number,
  devices: number,
) {
  return `
    INSERT INTO ${table} (id, org_id, device_id, time, gid, sid, rev, msg, category, severity,
                          action, proto, app_proto, src_ip, src_port, dest_ip, dest_port,
                          flow_id, event, received_at, acknowledged_at)
    SELECT ${firstId} + s.g, ${orgId}, dev.first_id + s.device, s.time, 1, s.sid, 3,
           'ET bench signature ' || s.sid, 'Class ' || (s.sid % 7),
           1 + (s.sid % 3), 'allowed', s.proto,
           CASE s.dest_port WHEN 443 THEN 'tls' WHEN 80 THEN 'http' WHEN 53 THEN 'dns' END,
           s.src_ip, s.src_port, s.dest_ip, s.dest_port, s.g,
           jsonb_build_object('timestamp', s.time, 'event_type', 'alert', 'src_ip', s.src_ip,
             'src_port', s.src_port, 'dest_ip', s.dest_ip, 'dest_port', s.dest_port,
             'proto', s.proto, 'flow_id', s.g,
             'alert', jsonb_build_object('action', 'allowed', 'gid', 1, 'signature_id', s.sid,
               'rev', 3, 'signature', 'ET bench signature ' || s.sid, 'severity', 1 + (s.sid % 3)),
             'flow', jsonb_build_object('pkts_toserver', s.g % 97, 'bytes_toserver', s.g % 9973)),
           s.time, CASE WHEN s.g % 1000 = 0 THEN s.time END
      FROM (SELECT r.*, CASE WHEN r.icmp THEN 'ICMP' WHEN r.dest_port IN (53, 123, 5060) THEN 'UDP'
                             ELSE 'TCP' END AS proto
              FROM (SELECT g,
                           timestamptz '${dayStart.toISOString()}' + ((g - 1)::float8 / ${perDay}) * interval '1 day' AS time,
                           floor(${devices} * power(random(), 2))::int AS device,
                           2000000 + floor(${SIGNATURES} * power(random(), 3))::int AS sid,
                           '198.51.' || floor(random() * 256)::int || '.' || floor(random() * 256)::int AS src_ip,
                           1024 + floor(random() * 64000)::int AS src_port,
                           '10.1.' || floor(random() * 256)::int || '.' || floor(random() * 64)::int AS dest_ip,
                           (ARRAY[443, 443, 443, 443, 80, 80, 80, 53, 53, 22, 445, 3389, 8080, 25, 123, 5060])
                             [1 + floor(random() * 16)::int] AS dest_port,
                           random() < 0.01 AS icmp
                      FROM generate_series(1, ${perDay}) g) r) s
      CROSS JOIN (SELECT min(id) AS first_id FROM devices WHERE name LIKE 'bench-%') dev`;
}

/** Fills `total` alerts ending `now`; returns the alerts per day and the last day's start. */
export async function fillAlerts(
  admin: pg.Client,
  options: { orgId: number; now: Date; total: number; devices: number },
) {
  const { orgId, now, total, devices } = options;
  await admin.query(
    `INSERT INTO devices (org_id, name, password_hash)
     SELECT $1, 'bench-' || g, 'x' FROM generate_series(1, $2::int) g`,
    [orgId, devices],
  );
  const perDay = Math.ceil(total / DAYS);
  const today = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  for (let back = DAYS - 1; back >= 0; back -= 1) {
    const day = new Date(today.getTime() - back * DAY_MS);
    const name = `device_alerts_p${day.toISOString().slice(0, 10).replaceAll('-', '')}`;
    const to = new Date(day.getTime() + DAY_MS).toISOString();
    // Today's and the coming days' partitions may be there already (the server's retention job).
    await admin.query(`DROP TABLE IF EXISTS ${name}`);
    await admin.query(
      `CREATE TABLE ${name} (LIKE device_alerts INCLUDING DEFAULTS,
         CHECK (time >= '${day.toISOString()}' AND time < '${to}'))`,
    );
    const firstId = (DAYS - 1 - back) * perDay;
    await admin.query(fillDaySql(name, day, perDay, firstId, orgId, devices));
    // Attaching builds the day's indexes in one sorted pass each.
    await admin.query(
      `ALTER TABLE device_alerts ATTACH PARTITION ${name} FOR VALUES FROM ('${day.toISOString()}') TO ('${to}')`,
    );
    // The day's rollup, as ingest would have kept it.
    const rollup = name.replace('device_alerts_', 'alert_rollup_');
    await admin.query(`DROP TABLE IF EXISTS ${rollup}`);
    await admin.query(
      `CREATE TABLE ${rollup} (LIKE alert_rollup INCLUDING DEFAULTS,
         CHECK (hour >= '${day.toISOString()}' AND hour < '${to}'))`,
    );
    await admin.query(
      `INSERT INTO ${rollup} (org_id, device_id, hour, gid, sid, severity, count, first_seen, last_seen)
       SELECT org_id, device_id, date_trunc('hour', time, 'UTC'), gid, sid, severity, count(*),
              min(time), max(time)
         FROM ${name} GROUP BY org_id, device_id, date_trunc('hour', time, 'UTC'), gid, sid, severity`,
    );
    await admin.query(
      `ALTER TABLE alert_rollup ATTACH PARTITION ${rollup} FOR VALUES FROM ('${day.toISOString()}') TO ('${to}')`,
    );
  }
  await admin.query(
    `SELECT setval(pg_get_serial_sequence('device_alerts', 'id'), ${DAYS * perDay + 1})`,
  );
  // The signature catalogue, as ingest would have kept it.
  await admin.query(
    `INSERT INTO alert_signatures (org_id, gid, sid, msg)
     SELECT DISTINCT org_id, gid, sid, msg FROM device_alerts WHERE msg IS NOT NULL
     ON CONFLICT (org_id, coalesce(gid, -1), coalesce(sid, -1), md5(msg)) DO NOTHING`,
  );
  await admin.query('VACUUM ANALYZE device_alerts');
  await admin.query('VACUUM ANALYZE alert_rollup');
  return { perDay, today };
}
