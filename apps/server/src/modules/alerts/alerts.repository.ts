import type { Queryable } from '../../db/client.js';
import { epochMicrosSql } from '../../db/microsecond-time.js';
import { parseSearch } from '@palisade/search-syntax';
import { searchCondition } from '../../lib/search-syntax.js';
import {
  alertWhere,
  parseCursor,
  type ResolvedAlertFilters,
  type SignatureMatch,
} from './alert-filters.js';

export interface AlertRow {
  id: number;
  device_id: number;
  device: string;
  time_us: string;
  gid: number | null;
  sid: number | null;
  rev: number | null;
  msg: string | null;
  category: string | null;
  severity: number | null;
  action: string | null;
  proto: string | null;
  app_proto: string | null;
  src_ip: string | null;
  src_port: number | null;
  dest_ip: string | null;
  dest_port: number | null;
  acknowledged: boolean;
  starred: boolean;
}

const COLUMNS = `a.id, a.device_id, d.name AS device, ${epochMicrosSql('a.time')} AS time_us, a.gid, a.sid, a.rev, a.msg, a.category,
  a.severity, a.action, a.proto, a.app_proto, a.src_ip, a.src_port, a.dest_ip, a.dest_port,
  a.acknowledged_at IS NOT NULL AS acknowledged, a.starred_at IS NOT NULL AS starred`;

export const alertsRepository = {
  /** Alerts of each device in its window [since, until), all windows in one statement. */
  async countInWindows(
    db: Queryable,
    windows: readonly { key: string; deviceId: number; since: Date; until: Date }[],
  ): Promise<{ key: string; n: number }[]> {
    if (windows.length === 0) return [];
    return db.query<{ key: string; n: number }>(
      `SELECT w.key, (SELECT count(*) FROM device_alerts a
                       WHERE a.device_id = w.device_id AND a.time >= w.since AND a.time < w.until)::int AS n
         FROM json_to_recordset($1::json) AS w(key text, device_id int, since timestamptz, until timestamptz)`,
      [
        JSON.stringify(
          windows.map((w) => ({
            key: w.key,
            device_id: w.deviceId,
            since: w.since,
            until: w.until,
          })),
        ),
      ],
    );
  },

  /** One page, newest first, after the cursor when given (keyset: no offset scan). */
  async page(
    db: Queryable,
    orgId: number,
    filters: ResolvedAlertFilters,
    limit: number,
    before?: string,
  ) {
    const { where, params } = alertWhere(orgId, filters);
    let clause = where;
    if (before) {
      const cursor = parseCursor(before);
      params.push(cursor.micros, cursor.id);
      clause += ` AND (a.time, a.id) < (timestamptz 'epoch' + $${params.length - 1}::bigint * interval '1 microsecond', $${params.length})`;
    }
    params.push(limit);
    return db.query<AlertRow>(
      `SELECT ${COLUMNS} FROM device_alerts a JOIN devices d ON d.id = a.device_id
        WHERE ${clause} ORDER BY a.time DESC, a.id DESC LIMIT $${params.length}`,
      params,
    );
  },

  /** Matching alerts counted up to `cap` (a count over millions stays bounded). */
  async count(
    db: Queryable,
    orgId: number,
    filters: ResolvedAlertFilters,
    cap: number,
  ): Promise<number> {
    const { where, params } = alertWhere(orgId, filters);
    params.push(cap);
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM device_alerts a WHERE ${where} LIMIT $${params.length}) capped`,
      params,
    );
    return row?.n ?? 0;
  },

  async detail(db: Queryable, orgId: number, id: number) {
    const [row] = await db.query<
      AlertRow & {
        event: Record<string, unknown>;
        acknowledged_at: Date | null;
        acknowledged_by: string | null;
        policy_id: number | null;
        policy_name: string | null;
        flow_id: string | null;
        fired_policy_id: number | null;
        fired_policy_version: number | null;
        fired_policy_name: string | null;
        fired_policy_current_version: number | null;
      }
    >(
      `SELECT ${COLUMNS}, a.event, a.acknowledged_at, u.email AS acknowledged_by, d.policy_id,
              p.name AS policy_name, a.flow_id::text AS flow_id,
              a.policy_id AS fired_policy_id, a.policy_version AS fired_policy_version,
              fp.name AS fired_policy_name, fp.version AS fired_policy_current_version
         FROM device_alerts a JOIN devices d ON d.id = a.device_id LEFT JOIN users u ON u.id = a.acknowledged_by
         LEFT JOIN policies p ON p.id = d.policy_id
         LEFT JOIN policies fp ON fp.id = a.policy_id AND fp.org_id = a.org_id
        WHERE a.org_id = $1 AND a.id = $2`,
      [orgId, id],
    );
    return row;
  },

  /**
   * Other alerts of one flow: a flow id is the sensor's, so it is looked up with its device
   * (index device_alerts_org_flow).
   */
  async sameFlow(
    db: Queryable,
    alert: { orgId: number; id: number; deviceId: number; flowId: string },
    limit: number,
  ) {
    return db.query<AlertRow>(
      `SELECT ${COLUMNS} FROM device_alerts a JOIN devices d ON d.id = a.device_id
        WHERE a.org_id = $1 AND a.flow_id = $2::bigint AND a.device_id = $3 AND a.id <> $4
        ORDER BY a.time DESC, a.id DESC LIMIT $5`,
      [alert.orgId, alert.flowId, alert.deviceId, alert.id, limit],
    );
  },

  /**
   * Other alerts between two addresses, either direction, within a time window: two probes of
   * the (org, src_ip, time) index bounded by the window's partitions.
   */
  async sameHostPair(
    db: Queryable,
    alert: { orgId: number; id: number; a: string; b: string; timeUs: string; minutes: number },
    limit: number,
  ) {
    const window = `timestamptz 'epoch' + $4::bigint * interval '1 microsecond'`;
    const side = (src: string, dest: string) =>
      `SELECT ${COLUMNS} FROM device_alerts a JOIN devices d ON d.id = a.device_id
        WHERE a.org_id = $1 AND a.src_ip = ${src} AND a.dest_ip = ${dest} AND a.id <> $5
          AND a.time >= ${window} - $6 * interval '1 minute'
          AND a.time <= ${window} + $6 * interval '1 minute'
        ORDER BY a.time DESC, a.id DESC LIMIT $7`;
    return db.query<AlertRow>(
      `SELECT * FROM ((${side('$2', '$3')}) UNION (${side('$3', '$2')})) pair
        ORDER BY time_us::bigint DESC, id DESC LIMIT $7`,
      [alert.orgId, alert.a, alert.b, alert.timeUs, alert.id, alert.minutes, limit],
    );
  },

  async range(db: Queryable, orgId: number, filters: ResolvedAlertFilters) {
    const { where, params } = alertWhere(orgId, filters);
    const [row] = await db.query<{ first: Date | null; last: Date | null }>(
      `SELECT min(a.time) AS first, max(a.time) AS last FROM device_alerts a WHERE ${where}`,
      params,
    );
    return row;
  },

  async histogram(
    db: Queryable,
    orgId: number,
    filters: ResolvedAlertFilters,
    start: Date,
    seconds: number,
    buckets: number,
  ) {
    const { where, params } = alertWhere(orgId, filters);
    params.push(start, seconds, buckets);
    const n = params.length;
    // date_bin on timestamps, not epoch arithmetic: extract() is numeric, several times slower
    // per row. The upper bound also keeps the scan to the window's partitions.
    return db.query<{ bucket: number; count: number }>(
      `SELECT round(extract(epoch FROM b.start - $${n - 2}::timestamptz) / $${n - 1})::int AS bucket, b.count
         FROM (SELECT date_bin($${n - 1} * interval '1 second', a.time, $${n - 2}::timestamptz) AS start,
                      count(*)::int AS count
                 FROM device_alerts a
                WHERE ${where} AND a.time >= $${n - 2}::timestamptz
                  AND a.time < $${n - 2}::timestamptz + $${n}::int * $${n - 1} * interval '1 second'
                GROUP BY 1) b
        ORDER BY 1`,
      params,
    );
  },

  async acknowledge(
    db: Queryable,
    orgId: number,
    ids: number[],
    userId: number | null,
    acknowledged: boolean,
  ) {
    const rows = await db.query<{ id: number }>(
      `UPDATE device_alerts SET acknowledged_at = CASE WHEN $4 THEN now() ELSE NULL END,
              acknowledged_by = CASE WHEN $4 THEN $3::int ELSE NULL END
        WHERE org_id = $1 AND id = ANY($2::bigint[]) RETURNING id`,
      [orgId, ids, userId, acknowledged],
    );
    return rows.length;
  },

  /**
   * How the signature ids (null: alerts without one) of the organization's catalogue answer the
   * search `text` (the same conditions as on the alerts' messages): the ids some of whose texts
   * match, and the shorter list of those whose texts all match or none does. One read of the
   * catalogue; only the ids named leave the database.
   */
  async signatureMatch(db: Queryable, orgId: number, text: string): Promise<SignatureMatch> {
    const params: string[] = [];
    const bind = (value: string) => {
      params.push(value);
      return `$${params.length + 1}`;
    };
    const condition = searchCondition('msg', parseSearch(text), bind);
    const rows = await db.query<{
      list: 'found' | 'excluded';
      sid: string | null;
      kind: 'found' | 'mixed' | 'excluded' | null;
    }>(
      `WITH s AS (SELECT sid, CASE WHEN bool_and(m) THEN 'found'
                                   WHEN bool_or(m) THEN 'mixed' ELSE 'excluded' END AS kind
                    FROM (SELECT sid, coalesce(${condition}, false) AS m
                            FROM alert_signatures WHERE org_id = $1) t
                   GROUP BY sid),
            shorter AS (SELECT CASE WHEN count(*) FILTER (WHERE kind = 'found')
                                         <= count(*) FILTER (WHERE kind = 'excluded')
                                    THEN 'found' ELSE 'excluded' END AS list FROM s)
       SELECT shorter.list, s.sid::text, s.kind
         FROM shorter LEFT JOIN s ON s.kind = 'mixed' OR s.kind = shorter.list`,
      [orgId, ...params],
    );
    // Every row names the list given; a row without a kind names no id.
    const named = rows[0]?.list ?? 'found';
    const ids = (kind: string) =>
      rows.filter((r) => r.kind === kind).map((r) => (r.sid === null ? null : Number(r.sid)));
    const mixed = ids('mixed');
    return named === 'excluded'
      ? { excluded: ids('excluded'), mixed }
      : { found: ids('found'), mixed };
  },
};
