import type { Queryable } from '../../db/client.js';

/**
 * What retention deletes of the alerts' tables row by row, a batch at a time (whole days go
 * with their partitions, db/alert-partitions.ts). Each returns how many rows it deleted.
 */
export const alertRetentionRepository = {
  /** Alerts in the default partition: day partitions past the cutoff are dropped already. */
  async deleteAlertsBatch(tx: Queryable, before: Date, limit: number): Promise<number> {
    const rows = await tx.query(
      `DELETE FROM device_alerts_default WHERE id IN (SELECT id FROM device_alerts_default WHERE time < $1 LIMIT ${limit}) RETURNING 1`,
      [before],
    );
    return rows.length;
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
