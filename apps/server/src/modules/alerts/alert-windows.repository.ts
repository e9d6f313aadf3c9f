import type { Queryable } from '../../db/client.js';
import { epochMicrosSql } from '../../db/microsecond-time.js';
import type { AlertRow } from './alerts.repository.js';

/** A rule's signature as a backtest matches alerts by it (gid 1 when the alert named none). */
export interface Signature {
  gid: number;
  sid: number;
}

/** A policy and its version, which each stored alert records (issue 20, item 5). */
export interface PolicyVersion {
  id: number;
  version: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** The first boundary of `step` milliseconds (UTC hours, days) at or after `time`. */
const ceilTo = (time: Date, step: number) => new Date(Math.ceil(time.getTime() / step) * step);

/**
 * The text of each signature asked for ($1 the organization, $4 their sids), from the
 * catalogue ingest keeps: read once per signature rather than from every alert's row.
 */
const SIGNATURE_TEXTS = `SELECT coalesce(gid, 1) AS gid, sid, max(msg) AS msg FROM alert_signatures
                          WHERE org_id = $1 AND sid = ANY($4::bigint[]) GROUP BY 1, 2`;

/**
 * Reads of stored alerts over a window for other modules (the policy backtest, issue 20): a
 * single statement each over device_alerts' own indexes.
 */
export const alertWindowsRepository = {
  /**
   * Each device's alerts in the window, all signatures together (the totals): whole UTC days
   * from alert_device_days, the whole hours before the first of them from alert_rollup, and
   * the window's partial first hour from device_alerts, all three kept exact at ingest.
   */
  async deviceTotals(db: Queryable, orgId: number, deviceIds: number[], since: Date) {
    const firstHour = ceilTo(since, HOUR_MS);
    const firstDay = ceilTo(since, DAY_MS);
    return db.query<{ device_id: number; n: number }>(
      `SELECT device_id, sum(n)::int AS n FROM (
         SELECT device_id, count AS n FROM alert_device_days
          WHERE org_id = $1 AND device_id = ANY($2::int[]) AND day >= $5::date
         UNION ALL
         SELECT device_id, count FROM alert_rollup
          WHERE org_id = $1 AND device_id = ANY($2::int[]) AND hour >= $4 AND hour < $5
         UNION ALL
         SELECT device_id, 1 FROM device_alerts
          WHERE org_id = $1 AND device_id = ANY($2::int[]) AND time >= $3 AND time < $4) t
        GROUP BY 1`,
      [orgId, deviceIds, since, firstHour, firstDay],
    );
  },

  /**
   * The alerts of the given signatures in the window, counted per device and signature. Read
   * through the signature's index for every device of the organization (the caller keeps the
   * policy's): a list of a thousand device ids made the planner scan the window by device.
   */
  async signatureTotals(
    db: Queryable,
    orgId: number,
    since: Date,
    signatures: { gid: number; sid: number }[],
    policy: PolicyVersion,
  ) {
    return db.query<{
      device_id: number;
      gid: number;
      sid: number;
      msg: string | null;
      n: number;
      earlier: number;
    }>(
      `SELECT t.device_id, t.gid, t.sid::float8 AS sid, m.msg, t.n, t.earlier
         FROM (SELECT device_id, coalesce(gid, 1) AS gid, sid, count(*)::int AS n,
                      count(*) FILTER (WHERE policy_id = $5 AND policy_version < $6)::int AS earlier
                 FROM device_alerts
                WHERE org_id = $1 AND time >= $2
                  AND sid = ANY($4::bigint[]) AND coalesce(gid, 1) = ANY($3::int[])
                GROUP BY 1, 2, 3) t
         LEFT JOIN (${SIGNATURE_TEXTS}) m ON m.gid = t.gid AND m.sid = t.sid`,
      [
        orgId,
        since,
        signatures.map((s) => s.gid),
        signatures.map((s) => s.sid),
        policy.id,
        policy.version,
      ],
    );
  },

  /**
   * The alerts of the given signatures in the window, at most `limit`, in no order, as one row
   * of comma-separated columns (the i-th entry of each is the i-th alert's): device, gid, sid,
   * time in microseconds since the epoch, id, source and destination ('' for none); and
   * `earlier`, a '1' or '0' per alert: whether it fired under a version of `policy` before the
   * one given. Read through the signature's covering index. What a suppression by address or a
   * threshold is replayed on: one text per column, as the driver reads a row per alert several
   * times slower than the database finds them.
   */
  async alertColumns(
    db: Queryable,
    orgId: number,
    since: Date,
    signatures: { gid: number; sid: number }[],
    policy: PolicyVersion,
    limit: number,
  ) {
    const [row] = await db.query<{
      n: number;
      devices: string | null;
      gids: string | null;
      sids: string | null;
      micros: string | null;
      ids: string | null;
      sources: string | null;
      destinations: string | null;
      earlier: string | null;
    }>(
      `SELECT count(*)::int AS n, string_agg(device_id::text, ',') AS devices,
              string_agg(gid::text, ',') AS gids, string_agg(sid::text, ',') AS sids,
              string_agg(micros, ',') AS micros, string_agg(id::text, ',') AS ids,
              string_agg(src, ',') AS sources, string_agg(dest, ',') AS destinations,
              string_agg(earlier, '') AS earlier
         FROM (SELECT device_id, coalesce(gid, 1) AS gid, sid, id,
                      ${epochMicrosSql('time')} AS micros,
                      coalesce(src_ip, '') AS src, coalesce(dest_ip, '') AS dest,
                      CASE WHEN policy_id = $6 AND policy_version < $7 THEN '1' ELSE '0' END
                        AS earlier
                 FROM device_alerts
                WHERE org_id = $1 AND time >= $2
                  AND sid = ANY($4::bigint[]) AND coalesce(gid, 1) = ANY($3::int[])
                LIMIT $5) a`,
      [
        orgId,
        since,
        signatures.map((s) => s.gid),
        signatures.map((s) => s.sid),
        limit,
        policy.id,
        policy.version,
      ],
    );
    return row;
  },

  /** The text of each signature, from the catalogue ingest keeps (one when several were seen). */
  async signatureTexts(db: Queryable, orgId: number, signatures: { gid: number; sid: number }[]) {
    return db.query<{ gid: number; sid: number; msg: string | null }>(
      `SELECT coalesce(gid, 1) AS gid, sid::float8 AS sid, max(msg) AS msg FROM alert_signatures
        WHERE org_id = $1 AND sid = ANY($2::bigint[]) GROUP BY 1, 2`,
      [orgId, signatures.map((s) => s.sid)],
    );
  },

  /** A device's latest stored alerts, newest first, at most `limit`. */
  async latestOfDevice(db: Queryable, deviceId: number, limit: number) {
    return db.query<DeviceAlertRow>(
      `SELECT id, ${epochMicrosSql('time')} AS time_us, gid, sid, rev, msg, category, severity, action, proto,
              app_proto, src_ip, src_port, dest_ip, dest_port, flow_id
         FROM device_alerts WHERE device_id = $1 ORDER BY time DESC, id DESC LIMIT $2`,
      [deviceId, limit],
    );
  },
};

/** An alert of a device's alert log: a list's alert without the triage, with its flow. */
export type DeviceAlertRow = Omit<AlertRow, 'device_id' | 'device' | 'acknowledged' | 'starred'> & {
  flow_id: number | null;
};
