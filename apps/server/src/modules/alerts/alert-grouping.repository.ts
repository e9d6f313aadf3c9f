import type { AlertGrouping } from '@palisade/contract';
import type { z } from 'zod';
import type { Queryable } from '../../db/client.js';
import { epochMicrosSql } from '../../db/microsecond-time.js';
import { alertWhere, type ResolvedAlertFilters } from './alert-filters.js';

type Grouping = z.infer<typeof AlertGrouping>;

/**
 * Each grouping's key columns (fixed here, never from the request) and how a key is matched
 * back to its alerts for the sparkline (coalesced, so a group of alerts without a source
 * still joins by hash).
 */
const KEYS: Record<Grouping, { column: string; joinable: string }[]> = {
  signature: [{ column: 'sid', joinable: 'coalesce(a.sid, -1)' }],
  source: [{ column: 'src_ip', joinable: "coalesce(a.src_ip, '')" }],
  destination: [{ column: 'dest_ip', joinable: "coalesce(a.dest_ip, '')" }],
  device: [{ column: 'device_id', joinable: 'a.device_id' }],
};

export interface GroupRow {
  sid: string | null;
  msg: string | null;
  src_ip: string | null;
  dest_ip: string | null;
  device_id: number | null;
  device: string | null;
  count: number;
  first_seen_us: string;
  last_seen_us: string;
  series: number[] | null;
}

/** Groupings read from `device_alerts` (the rollup holds no addresses), the largest first. */
export const alertGroupingRepository = {
  async groups(
    db: Queryable,
    orgId: number,
    filters: ResolvedAlertFilters,
    request: { by: Grouping; limit: number; start: Date; seconds: number; buckets: number },
  ): Promise<GroupRow[]> {
    const keys = KEYS[request.by];
    const { where, params } = alertWhere(orgId, filters);
    params.push(request.limit, request.start, request.seconds, request.buckets);
    const n = params.length;
    const named = keys.map((k, i) => `${k.joinable} AS k${i}`).join(', ');
    const keyList = keys.map((_k, i) => `k${i}`).join(', ');
    const select = (column: string) =>
      keys.some((k) => k.column === column) ? `min(a.${column})` : 'NULL';
    // The sparkline counts only the top groups' alerts, each in its bucket of the window.
    return db.query<GroupRow>(
      `WITH top AS (
         SELECT ${named}, count(*)::int AS count, ${select('sid')}::text AS sid,
                ${keys.some((k) => k.column === 'sid') ? 'min(a.msg)' : 'NULL'} AS msg,
                ${select('src_ip')} AS src_ip, ${select('dest_ip')} AS dest_ip,
                ${select('device_id')}::int AS device_id,
                ${epochMicrosSql('min(a.time)')} AS first_seen_us,
                ${epochMicrosSql('max(a.time)')} AS last_seen_us
           FROM device_alerts a WHERE ${where}
          GROUP BY ${keyList} ORDER BY count DESC, ${keyList} LIMIT $${n - 3}),
       points AS (
         SELECT ${keys.map((k, i) => `${k.joinable} AS k${i}`).join(', ')},
                floor(extract(epoch FROM a.time - $${n - 2}::timestamptz) / $${n - 1})::int AS bucket,
                count(*)::int AS c
           FROM device_alerts a WHERE ${where}
            AND a.time >= $${n - 2}::timestamptz
            AND a.time < $${n - 2}::timestamptz + $${n}::int * $${n - 1} * interval '1 second'
            AND (${keys.map((k) => k.joinable).join(', ')}) IN (SELECT ${keyList} FROM top)
          GROUP BY ${keyList}, bucket)
       SELECT top.sid, top.msg, top.src_ip, top.dest_ip, top.device_id, d.name AS device,
              top.count, top.first_seen_us, top.last_seen_us,
              (SELECT array_agg(coalesce(p.c, 0) ORDER BY b)
                 FROM generate_series(0, $${n}::int - 1) b
                 LEFT JOIN points p ON p.bucket = b AND ${keys.map((_k, i) => `p.k${i} = top.k${i}`).join(' AND ')}) AS series
         FROM top LEFT JOIN devices d ON d.id = top.device_id
        ORDER BY top.count DESC, ${keys.map((_k, i) => `top.k${i}`).join(', ')}`,
      params,
    );
  },
};
