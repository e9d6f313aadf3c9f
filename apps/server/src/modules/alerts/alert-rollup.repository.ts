import type { Queryable, SqlParam } from '../../db/client.js';
import { epochMicrosSql } from '../../db/microsecond-time.js';
import { alertWhere, type ResolvedAlertFilters } from './alert-filters.js';

/** What the rollup and the signature catalogue need of one stored alert (time: ISO, UTC). */
export interface RollupAlert {
  time: string;
  gid: number | null;
  sid: number | null;
  severity: number | null;
  msg: string | null;
}

/** A device's stored alerts, as the rollup and the catalogue take them. */
export interface RollupBatch {
  orgId: number;
  deviceId: number;
  alerts: readonly RollupAlert[];
}

export interface SignatureGroupRow {
  gid: number | null;
  sid: number | null;
  msg: string | null;
  severity: number | null;
  count: number;
  devices: number;
  /** Microseconds since the epoch (text, exact). */
  first_seen_us: string;
  last_seen_us: string;
}

/** One row of the rollup a statement adds: a device's alerts of one hour, signature and severity. */
interface RollupRow {
  orgId: number;
  deviceId: number;
  hour: string;
  gid: number | null;
  sid: number | null;
  severity: number | null;
  count: number;
  /** ISO times in UTC of the first and last of them. */
  first: string;
  last: string;
}

/** A signature text for the catalogue. */
interface CatalogueText {
  orgId: number;
  gid: number | null;
  sid: number | null;
  msg: string;
}

/** The UTC hour an ISO time in UTC (as ingest writes it, `isoFromEveTimestamp`) falls in. */
const hourOf = (time: string) => `${time.slice(0, 13)}:00:00Z`;

/**
 * The filters the rollup answers exactly: those on its own columns. The others (addresses,
 * ports, protocol, triage state, signature text) are read from device_alerts.
 */
export function rollupAnswers(filters: ResolvedAlertFilters): boolean {
  const answered = new Set(['device_id', 'since', 'until', 'severity', 'signature']);
  for (const [name, value] of Object.entries(filters)) {
    if (value === undefined || value === '') continue;
    if (!answered.has(name)) return false;
  }
  return filters.signature === undefined || /^\d{1,15}$/.test(filters.signature);
}

/**
 * The signature text of the rule key `alias.gid`/`alias.sid`, from the catalogue ingest keeps
 * (one when several texts were seen).
 */
export function signatureTextSql(orgParam: string, alias: string): string {
  return `(SELECT max(s.msg) FROM alert_signatures s
            WHERE s.org_id = ${orgParam} AND coalesce(s.gid, -1) = coalesce(${alias}.gid, -1)
              AND coalesce(s.sid, -1) = coalesce(${alias}.sid, -1))`;
}

/**
 * Groups of rows (gid, sid, device_id, severity, count, first_seen, last_seen) folded by
 * signature, the most frequent first, with the signature text from the catalogue. One sorted
 * aggregation with count(DISTINCT): cheaper than hashing per device first when the rows are
 * many (measured on the alert-store bench's data).
 */
function signatureGroupsSql(parts: string[], orgParam: string, limitParam: string) {
  return `SELECT g.gid, g.sid, g.severity, g.count, g.devices,
                 ${epochMicrosSql('g.first_seen')} AS first_seen_us,
                 ${epochMicrosSql('g.last_seen')} AS last_seen_us,
                 ${signatureTextSql(orgParam, 'g')} AS msg
            FROM (SELECT p.gid, p.sid, min(p.severity) AS severity, sum(p.count)::int AS count,
                         count(DISTINCT p.device_id)::int AS devices,
                         min(p.first_seen) AS first_seen, max(p.last_seen) AS last_seen
                    FROM (${parts.join(' UNION ALL ')}) p
                   GROUP BY p.gid, p.sid
                   ORDER BY sum(p.count) DESC, max(p.last_seen) DESC LIMIT ${limitParam}) g
           ORDER BY g.count DESC, g.last_seen DESC`;
}

const RAW_PART = `SELECT a.gid, a.sid, a.device_id, a.severity, 1 AS count, a.time AS first_seen,
                         a.time AS last_seen FROM device_alerts a`;

/** The whole UTC hours of a window, [start, end); start past end when it holds none. */
async function wholeHours(db: Queryable, since: string | undefined, until: string | undefined) {
  const [row] = await db.query<{ start: Date | null; end: Date | null }>(
    `SELECT date_trunc('hour', $1::timestamptz - interval '1 microsecond', 'UTC')
              + interval '1 hour' AS start,
            date_trunc('hour', $2::timestamptz, 'UTC') AS end`,
    [since ?? null, until ?? null],
  );
  return { start: row?.start ?? undefined, end: row?.end ?? undefined };
}

export const alertRollupRepository = {
  /**
   * Whether the rollup holds at most half as many rows as the alerts it sums, by the planner's
   * statistics of both tables (unknown before their first ANALYZE: then it is taken as small).
   * Alerts that repeat per device, signature and hour fold into few rows; where nearly every
   * alert is its own row (many devices and signatures, few alerts each), device_alerts' covering
   * index is the cheaper read.
   */
  async isCompact(db: Queryable): Promise<boolean> {
    const [row] = await db.query<{ rollup: number; alerts: number }>(
      `SELECT coalesce(sum(greatest(c.reltuples, 0)) FILTER (WHERE i.inhparent = 'alert_rollup'::regclass), 0)::float8 AS rollup,
              coalesce(sum(greatest(c.reltuples, 0)) FILTER (WHERE i.inhparent = 'device_alerts'::regclass), 0)::float8 AS alerts
         FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent IN ('alert_rollup'::regclass, 'device_alerts'::regclass)`,
    );
    return !row || row.alerts === 0 || row.rollup * 2 <= row.alerts;
  },

  /**
   * Adds stored batches of one or more devices to the rollup, to their alerts per day
   * (alert_device_days) and their new signature texts to the catalogue (alert_signatures): one
   * statement, in the batches' transaction. A device's batches are claimed one transaction at a
   * time (the claim locks its row), so two transactions never update the same rollup or
   * per-day row; catalogue rows, shared by an organization's devices, are inserted in one order
   * so that two transactions cannot wait on each other.
   */
  async addBatches(db: Queryable, batches: readonly RollupBatch[]) {
    // Rollup rows of one device and hour by signature id, and catalogue texts by signature id:
    // keys built once per hour, not per alert (a batch's alerts mostly share their hour). Keyed
    // by device too: one statement may not upsert the same row twice.
    const deviceHours = new Map<string, Map<number | null, RollupRow[]>>();
    const catalogue = new Map<number | null, CatalogueText[]>();
    for (const { orgId, deviceId, alerts } of batches) {
      let hourPrefix = '';
      let hour = '';
      let bySignature: Map<number | null, RollupRow[]> | undefined;
      for (const { time, gid, sid, severity, msg } of alerts) {
        if (bySignature === undefined || !time.startsWith(hourPrefix)) {
          hourPrefix = time.slice(0, 13);
          hour = hourOf(time);
          const key = `${deviceId} ${hour}`;
          bySignature = deviceHours.get(key) ?? new Map<number | null, RollupRow[]>();
          deviceHours.set(key, bySignature);
        }
        let rows = bySignature.get(sid);
        if (rows === undefined) bySignature.set(sid, (rows = []));
        const row = rows.find((r) => r.gid === gid && r.severity === severity);
        if (row === undefined) {
          rows.push({
            orgId,
            deviceId,
            hour,
            gid,
            sid,
            severity,
            count: 1,
            first: time,
            last: time,
          });
        } else {
          row.count += 1;
          // ISO times in UTC of the same form compare as text.
          if (time < row.first) row.first = time;
          if (time > row.last) row.last = time;
        }
        if (msg !== null) {
          let texts = catalogue.get(sid);
          if (texts === undefined) catalogue.set(sid, (texts = []));
          if (!texts.some((t) => t.msg === msg && t.gid === gid && t.orgId === orgId))
            texts.push({ orgId, gid, sid, msg });
        }
      }
    }
    const rows = [...deviceHours.values()].flatMap((bySignature) =>
      [...bySignature.values()].flat(),
    );
    if (rows.length === 0) return;
    const days = new Map<string, { orgId: number; deviceId: number; day: string; count: number }>();
    for (const { orgId, deviceId, hour, count } of rows) {
      const day = hour.slice(0, 10);
      const key = `${deviceId} ${day}`;
      const perDay = days.get(key);
      if (perDay) perDay.count += count;
      else days.set(key, { orgId, deviceId, day, count });
    }
    const perDay = [...days.values()];
    const texts = [...catalogue.values()]
      .flat()
      .sort(
        (a, b) =>
          a.orgId - b.orgId ||
          (a.gid ?? -1) - (b.gid ?? -1) ||
          (a.sid ?? -1) - (b.sid ?? -1) ||
          (a.msg < b.msg ? -1 : a.msg > b.msg ? 1 : 0),
      );
    await db.query(
      {
        // Prepared: a fleet sends these all the time.
        name: 'add_to_alert_rollup',
        text: `WITH catalogued AS (
         INSERT INTO alert_signatures (org_id, gid, sid, msg)
         SELECT * FROM unnest($10::int[], $11::int[], $12::bigint[], $13::text[])
         ON CONFLICT (org_id, coalesce(gid, -1), coalesce(sid, -1), md5(msg)) DO NOTHING),
       device_days AS (
         INSERT INTO alert_device_days AS d (org_id, device_id, day, count)
         SELECT * FROM unnest($14::int[], $15::int[], $16::date[], $17::bigint[])
         ON CONFLICT (org_id, day, device_id) DO UPDATE SET count = d.count + excluded.count)
       INSERT INTO alert_rollup AS r (org_id, device_id, hour, gid, sid, severity, count,
                                      first_seen, last_seen)
       SELECT * FROM unnest($1::int[], $2::int[], $3::timestamptz[], $4::int[], $5::bigint[],
                            $6::int[], $7::int[], $8::timestamptz[], $9::timestamptz[])
       ON CONFLICT (org_id, hour, gid, sid, severity, device_id) DO UPDATE
         SET count = r.count + excluded.count,
             first_seen = least(r.first_seen, excluded.first_seen),
             last_seen = greatest(r.last_seen, excluded.last_seen)`,
      },
      [
        rows.map((g) => g.orgId),
        rows.map((g) => g.deviceId),
        rows.map((g) => g.hour),
        rows.map((g) => g.gid),
        rows.map((g) => g.sid),
        rows.map((g) => g.severity),
        rows.map((g) => g.count),
        rows.map((g) => g.first),
        rows.map((g) => g.last),
        texts.map((t) => t.orgId),
        texts.map((t) => t.gid),
        texts.map((t) => t.sid),
        texts.map((t) => t.msg),
        perDay.map((d) => d.orgId),
        perDay.map((d) => d.deviceId),
        perDay.map((d) => d.day),
        perDay.map((d) => d.count),
      ],
    );
  },

  /**
   * The grouping by signature, exact, from the rollup's whole hours and device_alerts' rows of
   * the window's partial first and last hour. Only for filters `rollupAnswers` accepts.
   */
  async groups(
    db: Queryable,
    orgId: number,
    filters: ResolvedAlertFilters,
    limit: number,
  ): Promise<SignatureGroupRow[]> {
    const { start, end } = await wholeHours(db, filters.since, filters.until);
    const params: SqlParam[] = [orgId];
    const bind = (value: SqlParam) => {
      params.push(value);
      return `$${params.length}`;
    };
    const parts: string[] = [];
    const raw = (since: string | undefined, until: string | undefined) => {
      const { where } = alertWhere(orgId, { ...filters, since, until }, params);
      parts.push(`${RAW_PART} WHERE ${where}`);
    };
    // Within one hour (start past end) device_alerts answers alone.
    const withinOneHour = start !== undefined && end !== undefined && start > end;
    if (filters.since !== undefined && start !== undefined) {
      const headEnd = withinOneHour ? filters.until : start.toISOString();
      raw(filters.since, headEnd);
    }
    if (!withinOneHour) {
      const conditions = ['r.org_id = $1'];
      if (start) conditions.push(`r.hour >= ${bind(start)}`);
      if (end) conditions.push(`r.hour < ${bind(end)}`);
      if (filters.device_id !== undefined)
        conditions.push(`r.device_id = ${bind(filters.device_id)}`);
      if (filters.severity !== undefined)
        conditions.push(`r.severity <= ${bind(filters.severity)}`);
      if (filters.signature !== undefined)
        conditions.push(`r.sid = ${bind(Number(filters.signature))}`);
      parts.push(
        `SELECT r.gid, r.sid, r.device_id, r.severity, r.count, r.first_seen, r.last_seen
           FROM alert_rollup r WHERE ${conditions.join(' AND ')}`,
      );
      if (filters.until !== undefined && end !== undefined) raw(end.toISOString(), filters.until);
    }
    const limitParam = bind(limit);
    return db.query<SignatureGroupRow>(signatureGroupsSql(parts, '$1', limitParam), params);
  },

  /** The same grouping read from device_alerts alone: for the filters the rollup cannot answer. */
  async groupsFromAlerts(
    db: Queryable,
    orgId: number,
    filters: ResolvedAlertFilters,
    limit: number,
  ): Promise<SignatureGroupRow[]> {
    const { where, params } = alertWhere(orgId, filters);
    params.push(limit);
    return db.query<SignatureGroupRow>(
      signatureGroupsSql([`${RAW_PART} WHERE ${where}`], '$1', `$${params.length}`),
      params,
    );
  },
};
