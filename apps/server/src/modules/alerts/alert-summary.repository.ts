import type { Queryable } from '../../db/client.js';

/** The dashboard's alert queries: each one statement over the window's partitions. */
export const alertSummaryRepository = {
  /** Counts per bucket and severity (1–3, 4 for 4+ or none). */
  async rate(
    db: Queryable,
    query: { orgId: number; start: Date; seconds: number; buckets: number },
  ) {
    return db.query<{ bucket: number; severity: number; count: number }>(
      `SELECT round(extract(epoch FROM b.start - $2::timestamptz) / $3)::int AS bucket, b.severity, b.count
         FROM (SELECT date_bin($3 * interval '1 second', a.time, $2::timestamptz) AS start,
                      least(coalesce(a.severity, 4), 4)::int AS severity, count(*)::int AS count
                 FROM device_alerts a
                WHERE a.org_id = $1 AND a.time >= $2::timestamptz
                  AND a.time < $2::timestamptz + $4::int * $3 * interval '1 second'
                GROUP BY 1, 2) b
        ORDER BY 1, 2`,
      [query.orgId, query.start, query.seconds, query.buckets],
    );
  },

  /** The most frequent source and destination addresses since `start`, `top` of each. */
  async talkers(db: Queryable, query: { orgId: number; start: Date; top: number }) {
    return db.query<{ side: 'src' | 'dest'; ip: string; count: number }>(
      `(SELECT 'src' AS side, a.src_ip AS ip, count(*)::int AS count FROM device_alerts a
         WHERE a.org_id = $1 AND a.time >= $2::timestamptz AND a.src_ip IS NOT NULL
         GROUP BY a.src_ip ORDER BY 3 DESC, 2 LIMIT $3)
       UNION ALL
       (SELECT 'dest' AS side, a.dest_ip AS ip, count(*)::int AS count FROM device_alerts a
         WHERE a.org_id = $1 AND a.time >= $2::timestamptz AND a.dest_ip IS NOT NULL
         GROUP BY a.dest_ip ORDER BY 3 DESC, 2 LIMIT $3)`,
      [query.orgId, query.start, query.top],
    );
  },
};
