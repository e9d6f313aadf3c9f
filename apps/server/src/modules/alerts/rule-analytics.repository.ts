import type { Queryable, SqlParam } from '../../db/client.js';
import { signatureTextSql } from './alert-rollup.repository.js';

/** A rule as the rollup keys it: the catalogue names it (gid and sid may be null in an event). */
export interface RuleKey {
  gid: number | null;
  sid: number | null;
}

export interface NoisyRow extends RuleKey {
  count: number;
  devices: number;
  last_seen: Date;
  total: number;
}

export interface DailyRow extends RuleKey {
  day: string;
  count: number;
}

export interface RecentRow extends RuleKey {
  recent: number;
  before: number;
}

export interface RuleDeviceDayRow {
  device_id: number;
  device: string;
  day: string;
  count: number;
  last_seen: Date;
}

/** The signature text of each rule key; the organization is always the first parameter. */
const MSG = (alias: string) => signatureTextSql('$1', alias);

/** `r.org_id = $1 AND r.hour >= $2`, and the device when one is asked for. */
function windowWhere(orgId: number, since: Date, deviceId: number | undefined) {
  const params: SqlParam[] = [orgId, since];
  let where = 'r.org_id = $1 AND r.hour >= $2';
  if (deviceId !== undefined) {
    params.push(deviceId);
    where += ` AND r.device_id = $${params.length}`;
  }
  return { params, where };
}

const DAY = `to_char(date_trunc('day', r.hour, 'UTC') AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;

/**
 * Rule analytics' reads of the hourly rollup (`alert_rollup`, kept at ingest by
 * alert-rollup.repository.ts): every answer sums rollup rows, never alerts.
 */
export const ruleAnalyticsRepository = {
  /** The window's rules with the most alerts, and the window's total on each row. */
  async noisiest(
    db: Queryable,
    orgId: number,
    window: { since: Date; deviceId?: number; limit: number },
  ): Promise<(NoisyRow & { msg: string | null })[]> {
    const { params, where } = windowWhere(orgId, window.since, window.deviceId);
    params.push(window.limit);
    const rows = await db.query<NoisyRow & { msg: string | null; count: string; total: string }>(
      `SELECT g.gid, g.sid, g.count::text, g.devices, g.last_seen, g.total::text, ${MSG('g')} AS msg
         FROM (SELECT r.gid, r.sid, sum(r.count) AS count, count(DISTINCT r.device_id)::int AS devices,
                      max(r.last_seen) AS last_seen, sum(sum(r.count)) OVER () AS total
                 FROM alert_rollup r WHERE ${where}
                GROUP BY r.gid, r.sid
                ORDER BY count DESC, r.gid, r.sid LIMIT $${params.length}) g
        ORDER BY g.count DESC, g.gid, g.sid`,
      params,
    );
    return rows.map((row) => ({ ...row, count: Number(row.count), total: Number(row.total) }));
  },

  /** Alerts per UTC day of the window for the rules given. */
  async daily(
    db: Queryable,
    orgId: number,
    window: { since: Date; deviceId?: number },
    rules: readonly RuleKey[],
  ): Promise<DailyRow[]> {
    if (rules.length === 0) return [];
    const { params, where } = windowWhere(orgId, window.since, window.deviceId);
    params.push(
      rules.map((rule) => rule.gid ?? -1),
      rules.map((rule) => rule.sid ?? -1),
    );
    const rows = await db.query<DailyRow & { count: string }>(
      `SELECT r.gid, r.sid, ${DAY} AS day, sum(r.count)::text AS count
         FROM alert_rollup r
        WHERE ${where}
          AND (coalesce(r.gid, -1), coalesce(r.sid, -1)) IN
              (SELECT * FROM unnest($${params.length - 1}::int[], $${params.length}::bigint[]))
        GROUP BY r.gid, r.sid, day`,
      params,
    );
    return rows.map((row) => ({
      ...row,
      sid: row.sid === null ? null : Number(row.sid),
      count: Number(row.count),
    }));
  },

  /** Each rule's alerts since `recentFrom` and before it, within the window. */
  async recentAndBefore(
    db: Queryable,
    orgId: number,
    window: { since: Date; deviceId?: number; recentFrom: Date },
  ): Promise<(RecentRow & { msg: string | null })[]> {
    const { params, where } = windowWhere(orgId, window.since, window.deviceId);
    params.push(window.recentFrom);
    const rows = await db.query<RecentRow & { msg: string | null; recent: string; before: string }>(
      `SELECT g.gid, g.sid, g.recent::text, g.before::text, ${MSG('g')} AS msg
         FROM (SELECT r.gid, r.sid,
                      coalesce(sum(r.count) FILTER (WHERE r.hour >= $${params.length}), 0) AS recent,
                      coalesce(sum(r.count) FILTER (WHERE r.hour < $${params.length}), 0) AS before
                 FROM alert_rollup r WHERE ${where}
                GROUP BY r.gid, r.sid) g`,
      params,
    );
    return rows.map((row) => ({
      ...row,
      sid: row.sid === null ? null : Number(row.sid),
      recent: Number(row.recent),
      before: Number(row.before),
    }));
  },

  /** One rule's alerts per device and UTC day of the window, with the devices' names. */
  async ruleByDeviceDay(
    db: Queryable,
    orgId: number,
    window: { since: Date; deviceId?: number },
    rule: { gid: number; sid: number },
  ): Promise<RuleDeviceDayRow[]> {
    const { params, where } = windowWhere(orgId, window.since, window.deviceId);
    params.push(rule.gid, rule.sid);
    const rows = await db.query<RuleDeviceDayRow & { count: string }>(
      `SELECT r.device_id, d.name AS device, ${DAY} AS day, sum(r.count)::text AS count,
              max(r.last_seen) AS last_seen
         FROM alert_rollup r JOIN devices d ON d.id = r.device_id
        WHERE ${where} AND r.gid = $${params.length - 1} AND r.sid = $${params.length}
        GROUP BY r.device_id, d.name, day`,
      params,
    );
    return rows.map((row) => ({ ...row, count: Number(row.count) }));
  },

  /** When the rule first and last fired in all the rollup keeps, and its text. */
  async ruleSpan(db: Queryable, orgId: number, rule: { gid: number; sid: number }) {
    const [row] = await db.query<{
      first_seen: Date | null;
      last_seen: Date | null;
      msg: string | null;
    }>(
      `SELECT min(r.first_seen) AS first_seen, max(r.last_seen) AS last_seen,
              ${MSG('k')} AS msg
         FROM (SELECT $2::int AS gid, $3::bigint AS sid) k
         LEFT JOIN alert_rollup r ON r.org_id = $1 AND r.sid = k.sid AND r.gid = k.gid
        GROUP BY k.gid, k.sid`,
      [orgId, rule.gid, rule.sid],
    );
    return row ?? { first_seen: null, last_seen: null, msg: null };
  },

  /** The rules that fired on any of the devices in the window. */
  async firedOn(
    db: Queryable,
    orgId: number,
    since: Date,
    deviceIds: readonly number[],
  ): Promise<RuleKey[]> {
    if (deviceIds.length === 0) return [];
    const rows = await db.query<RuleKey>(
      `SELECT DISTINCT r.gid, r.sid FROM alert_rollup r
        WHERE r.org_id = $1 AND r.hour >= $2 AND r.device_id = ANY($3::int[])`,
      [orgId, since, [...deviceIds]],
    );
    return rows.map((row) => ({ gid: row.gid, sid: row.sid === null ? null : Number(row.sid) }));
  },
};
