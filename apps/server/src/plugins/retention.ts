import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/client.js';
import { scheduleJob } from './scheduled-jobs.js';

const HOUR_MS = 3_600_000;
/** The wait before a failed run is tried again. */
const RETRY_MS = 60_000;
/** A run of this job takes minutes at most; a replica that died mid-run is replaced after. */
const RETENTION_LEASE_MS = 30 * 60_000;
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

/**
 * Runs the retention an hour apart, first a minute after start (JOB_CHECK_SECONDS), on one
 * replica per run (see scheduled-jobs.ts). A run that fails (the database went away) is logged
 * and tried again a minute later, until one succeeds.
 */
export const retentionPlugin = fp(async (app: FastifyInstance) => {
  scheduleJob(app, {
    name: 'retention',
    everyMs: HOUR_MS,
    retryMs: RETRY_MS,
    leaseMs: RETENTION_LEASE_MS,
    run: async () => {
      const deleted = await applyRetention(app.ctx.db, app.ctx.config);
      app.log.info({ deleted }, 'retention applied');
    },
  });
});
