import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database, Queryable } from '../db/client.js';
import { maintainAlertPartitions } from '../modules/alerts/alert-partitions.js';
import { pruneAuditLog } from '../modules/audit/audit.service.js';
import { pruneFirewallHits } from '../modules/firewall/firewall-hits.service.js';
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

const lockRetention = async (tx: Queryable) => {
  const [lock] = await tx.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [
    RETENTION_LOCK,
  ]);
  return lock?.ok === true;
};

/**
 * Drops the alert days past their retention whole and creates the coming days' partitions;
 * deletes the rest past retention (alerts in the default partition, metric samples, agent log
 * lines) in batches so that no single statement holds locks for long. One replica at a time
 * (advisory lock).
 */
export async function applyRetention(db: Database, policy: RetentionPolicy, now = new Date()) {
  const day = 86_400_000;
  const alertCutoff = new Date(now.getTime() - policy.alertRetentionDays * day);
  // Whole hours: the rollup's rows of an hour go with that hour's alerts.
  const alertHourCutoff = new Date(Math.floor(alertCutoff.getTime() / HOUR_MS) * HOUR_MS);
  const partitions = await maintainAlertPartitions(db, {
    now,
    cutoff: alertCutoff,
    lock: lockRetention,
  });
  const targets = [
    {
      // Day partitions past the cutoff are gone already; what is left is the default's.
      table: 'device_alerts_default',
      column: 'id',
      before: alertHourCutoff,
      // Their rollup rows go in the transaction of the last batch.
      lastly: 'DELETE FROM alert_rollup_default WHERE hour < $1',
    },
    {
      // Analysts' comments go with their alerts (they name them by id and time).
      table: 'alert_comments',
      column: 'id',
      before: alertCutoff,
      lastly: undefined,
    },
    {
      table: 'device_logs',
      column: 'id',
      before: new Date(now.getTime() - policy.metricRetentionDays * day),
      lastly: undefined,
    },
    {
      table: 'device_metrics',
      column: 'ctid',
      before: new Date(now.getTime() - policy.metricRetentionDays * day),
      lastly: undefined,
    },
  ] as const;
  const deleted: Record<string, number> = {
    device_alert_days_dropped: partitions.dropped,
    device_alert_days_created: partitions.created,
  };
  for (const { table, column, before, lastly } of targets) {
    const key = table === 'device_alerts_default' ? 'device_alerts' : table;
    deleted[key] = 0;
    for (;;) {
      const removed = await db.transaction(async (tx) => {
        if (!(await lockRetention(tx))) return 0;
        const rows = await tx.query(
          `DELETE FROM ${table} WHERE ${column} IN (SELECT ${column} FROM ${table} WHERE time < $1 LIMIT ${BATCH}) RETURNING 1`,
          [before],
        );
        if (lastly && rows.length < BATCH) await tx.query(lastly, [before]);
        return rows.length;
      });
      deleted[key] += removed;
      if (removed < BATCH) break;
    }
  }
  // Devices that stopped reporting leave hits behind that their own next report would prune.
  deleted['firewall_rule_hits'] = await pruneFirewallHits(db);
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
  // The audit log's own job: its records outlive telemetry by far (AUDIT_RETENTION_DAYS).
  scheduleJob(app, {
    name: 'audit-retention',
    everyMs: HOUR_MS,
    retryMs: RETRY_MS,
    leaseMs: RETENTION_LEASE_MS,
    run: async () => {
      const deleted = await pruneAuditLog(app.ctx.db, app.ctx.config.auditRetentionDays);
      app.log.info({ deleted }, 'audit log retention applied');
    },
  });
});
