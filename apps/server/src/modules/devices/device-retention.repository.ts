import type { Queryable } from '../../db/client.js';

/** What retention deletes of the devices' telemetry, a batch at a time; each returns a count. */
export const deviceRetentionRepository = {
  async deleteLogsBatch(tx: Queryable, before: Date, limit: number): Promise<number> {
    const rows = await tx.query(
      `DELETE FROM device_logs WHERE id IN (SELECT id FROM device_logs WHERE time < $1 LIMIT ${limit}) RETURNING 1`,
      [before],
    );
    return rows.length;
  },

  // device_metrics has no key: its rows are found by their physical address.
  async deleteMetricsBatch(tx: Queryable, before: Date, limit: number): Promise<number> {
    const rows = await tx.query(
      `DELETE FROM device_metrics WHERE ctid IN (SELECT ctid FROM device_metrics WHERE time < $1 LIMIT ${limit}) RETURNING 1`,
      [before],
    );
    return rows.length;
  },
};
