import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/client.js';

const HOUR_MS = 3_600_000;
const BATCH = 10_000;
const RETENTION_LOCK = 7_262_003;

export interface RetentionPolicy {
  alertRetentionDays: number;
  metricRetentionDays: number;
}

/**
 * Deletes alerts, metric samples and agent log lines past their retention, in batches so that
 * no single statement holds locks for long. One replica at a time (advisory lock).
 */
export async function applyRetention(db: Database, policy: RetentionPolicy, now = new Date()) {
  const day = 86_400_000;
  const targets = [
    {
      table: 'device_alerts',
      column: 'id',
      before: new Date(now.getTime() - policy.alertRetentionDays * day),
    },
    {
      table: 'device_logs',
      column: 'id',
      before: new Date(now.getTime() - policy.metricRetentionDays * day),
    },
    {
      table: 'device_metrics',
      column: 'ctid',
      before: new Date(now.getTime() - policy.metricRetentionDays * day),
    },
  ] as const;
  const deleted: Record<string, number> = {};
  for (const { table, column, before } of targets) {
    deleted[table] = 0;
    for (;;) {
      const removed = await db.transaction(async (tx) => {
        const [lock] = await tx.query<{ ok: boolean }>(
          'SELECT pg_try_advisory_xact_lock($1) AS ok',
          [RETENTION_LOCK],
        );
        if (!lock?.ok) return 0;
        const rows = await tx.query(
          `DELETE FROM ${table} WHERE ${column} IN (SELECT ${column} FROM ${table} WHERE time < $1 LIMIT ${BATCH}) RETURNING 1`,
          [before],
        );
        return rows.length;
      });
      deleted[table] += removed;
      if (removed < BATCH) break;
    }
  }
  return deleted;
}

/** Runs the retention an hour apart, first a minute after start. */
export const retentionPlugin = fp(async (app: FastifyInstance) => {
  const run = () =>
    applyRetention(app.ctx.db, app.ctx.config)
      .then((deleted) => app.log.info({ deleted }, 'retention applied'))
      .catch((error: unknown) => app.log.error({ err: error }, 'retention failed'));
  const first = setTimeout(() => void run(), 60_000);
  const every = setInterval(() => void run(), HOUR_MS);
  first.unref();
  every.unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(every);
  });
});
