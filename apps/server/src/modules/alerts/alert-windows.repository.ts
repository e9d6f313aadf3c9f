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

/**
 * Reads of stored alerts over a window for other modules (the policy backtest, issue 20): a
 * single statement each over device_alerts' own indexes.
 */
export const alertWindowsRepository = {
  /** Each device's alerts in the window, all signatures together (the totals). */
  async deviceTotals(db: Queryable, orgId: number, deviceIds: number[], since: Date) {
    return db.query<{ device_id: number; n: number }>(
      `SELECT device_id, count(*)::int AS n FROM device_alerts
        WHERE org_id = $1 AND device_id = ANY($2::int[]) AND time >= $3
        GROUP BY 1`,
      [orgId, deviceIds, since],
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
      `SELECT device_id, coalesce(gid, 1) AS gid, sid::float8 AS sid, max(msg) AS msg,
              count(*)::int AS n,
              count(*) FILTER (WHERE policy_id = $5 AND policy_version < $6)::int AS earlier
         FROM device_alerts
        WHERE org_id = $1 AND time >= $2
          AND sid = ANY($4::bigint[]) AND coalesce(gid, 1) = ANY($3::int[])
        GROUP BY 1, 2, 3`,
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
   * The alerts of the given signatures in the window, oldest first, through the signature's
   * index as above: what a suppression by address or a threshold is replayed on.
   */
  async alertsOf(
    db: Queryable,
    orgId: number,
    since: Date,
    signatures: { gid: number; sid: number }[],
    limit: number,
  ) {
    return db.query<{
      device_id: number;
      gid: number;
      sid: number;
      msg: string | null;
      micros: string;
      src_ip: string | null;
      dest_ip: string | null;
      policy_id: number | null;
      policy_version: number | null;
    }>(
      `SELECT device_id, coalesce(gid, 1) AS gid, sid::float8 AS sid, msg,
              (extract(epoch FROM time) * 1000000)::bigint::text AS micros, src_ip, dest_ip,
              policy_id, policy_version
         FROM device_alerts
        WHERE org_id = $1 AND time >= $2
          AND sid = ANY($4::bigint[]) AND coalesce(gid, 1) = ANY($3::int[])
        ORDER BY time, id LIMIT $5`,
      [orgId, since, signatures.map((s) => s.gid), signatures.map((s) => s.sid), limit],
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
