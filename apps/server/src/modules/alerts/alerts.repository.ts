import type { Queryable } from '../../db/client.js';
import { epochMicrosSql } from '../../db/microsecond-time.js';
import {
  alertWhere,
  containsPattern,
  parseCursor,
  type ResolvedAlertFilters,
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
}

const COLUMNS = `a.id, a.device_id, d.name AS device, ${epochMicrosSql('a.time')} AS time_us, a.gid, a.sid, a.rev, a.msg, a.category,
  a.severity, a.action, a.proto, a.app_proto, a.src_ip, a.src_port, a.dest_ip, a.dest_port,
  a.acknowledged_at IS NOT NULL AS acknowledged`;

export const alertsRepository = {
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
      }
    >(
      `SELECT ${COLUMNS}, a.event, a.acknowledged_at, u.email AS acknowledged_by, d.policy_id
         FROM device_alerts a JOIN devices d ON d.id = a.device_id LEFT JOIN users u ON u.id = a.acknowledged_by
        WHERE a.org_id = $1 AND a.id = $2`,
      [orgId, id],
    );
    return row;
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

  /** The signature ids (null: alerts without one) whose message holds `text`, from the catalogue. */
  async signatureIds(db: Queryable, orgId: number, text: string): Promise<(number | null)[]> {
    const rows = await db.query<{ sid: string | null }>(
      'SELECT DISTINCT sid::text FROM alert_signatures WHERE org_id = $1 AND msg ILIKE $2',
      [orgId, containsPattern(text)],
    );
    return rows.map((r) => (r.sid === null ? null : Number(r.sid)));
  },

  async ruleFor(db: Queryable, orgId: number, gid: number, sid: number) {
    const [row] = await db.query<{ id: number; text: string; source: string }>(
      'SELECT id, text, source FROM rules WHERE org_id = $1 AND gid = $2 AND sid = $3',
      [orgId, gid, sid],
    );
    return row;
  },
};
