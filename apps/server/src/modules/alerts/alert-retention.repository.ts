import type { Queryable } from '../../db/client.js';

/**
 * What retention deletes of the alerts' tables row by row, a batch at a time (whole days go
 * with their partitions, db/alert-partitions.ts). Each returns how many rows it deleted.
 */
export const alertRetentionRepository = {
  /**
   * Alerts in the default partition: day partitions past the cutoff are dropped already. Their
   * devices' counts per day (alert_device_days) go down by as many, in the same statement.
   */
  async deleteAlertsBatch(tx: Queryable, before: Date, limit: number): Promise<number> {
    const [row] = await tx.query<{ n: number }>(
      `WITH gone AS (
         DELETE FROM device_alerts_default
          WHERE id IN (SELECT id FROM device_alerts_default WHERE time < $1 LIMIT ${limit})
         RETURNING org_id, device_id, (time AT TIME ZONE 'UTC')::date AS day),
       per_day AS (SELECT org_id, device_id, day, count(*) AS n FROM gone GROUP BY 1, 2, 3),
       counted AS (
         UPDATE alert_device_days d SET count = d.count - p.n FROM per_day p
          WHERE d.org_id = p.org_id AND d.device_id = p.device_id AND d.day = p.day)
       SELECT count(*)::int AS n FROM gone`,
      [before],
    );
    return row?.n ?? 0;
  },

  /** The rollup's rows of the default partition's hours before `before`. */
  async deleteRollup(tx: Queryable, before: Date): Promise<void> {
    await tx.query('DELETE FROM alert_rollup_default WHERE hour < $1', [before]);
  },

  async deleteCommentsBatch(tx: Queryable, before: Date, limit: number): Promise<number> {
    const rows = await tx.query(
      `DELETE FROM alert_comments WHERE id IN (SELECT id FROM alert_comments WHERE time < $1 LIMIT ${limit}) RETURNING 1`,
      [before],
    );
    return rows.length;
  },
};
