import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database, Queryable } from '../db/client.js';
import { tryAdvisoryTransactionLock } from '../db/advisory-locks.js';
import { maintainAlertPartitions } from '../db/alert-partitions.js';
import { alertRetention } from '../modules/alerts/alerts.service.js';
import { pruneAuditLog } from '../modules/audit/audit.service.js';
import { deviceRetention } from '../modules/devices/devices.service.js';
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

const lockRetention = (tx: Queryable) => tryAdvisoryTransactionLock(tx, RETENTION_LOCK);

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
  const metricCutoff = new Date(now.getTime() - policy.metricRetentionDays * day);
  const targets = [
    {
      // Day partitions past the cutoff are gone already; what is left is the default's.
      key: 'device_alerts',
      before: alertHourCutoff,
      deleteBatch: (tx: Queryable, before: Date, limit: number) =>
        alertRetention.deleteAlertsBatch(tx, before, limit),
      // Their rollup rows go in the transaction of the last batch.
      lastly: (tx: Queryable, before: Date) => alertRetention.deleteRollup(tx, before),
    },
    {
      // Analysts' comments go with their alerts (they name them by id and time).
      key: 'alert_comments',
      before: alertCutoff,
      deleteBatch: (tx: Queryable, before: Date, limit: number) =>
        alertRetention.deleteCommentsBatch(tx, before, limit),
      lastly: undefined,
    },
    {
      key: 'device_logs',
      before: metricCutoff,
      deleteBatch: (tx: Queryable, before: Date, limit: number) =>
        deviceRetention.deleteLogsBatch(tx, before, limit),
      lastly: undefined,
    },
    {
      key: 'device_metrics',
      before: metricCutoff,
      deleteBatch: (tx: Queryable, before: Date, limit: number) =>
        deviceRetention.deleteMetricsBatch(tx, before, limit),
      lastly: undefined,
    },
  ] as const;
  const deleted: Record<string, number> = {
    device_alert_days_dropped: partitions.dropped,
    device_alert_days_created: partitions.created,
  };
  for (const { key, before, deleteBatch, lastly } of targets) {
    deleted[key] = 0;
    for (;;) {
      const removed = await db.transaction(async (tx) => {
        if (!(await lockRetention(tx))) return 0;
        const count = await deleteBatch(tx, before, BATCH);
        if (lastly && count < BATCH) await lastly(tx, before);
        return count;
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
 * Makes the alert day partitions from yesterday to the days ahead at start, before the server
 * listens: the retention job first runs a minute later. Without them, after a first start (or a
 * start after days down) every alert went to the default partition, and the job's first run
 * then moved them all into their days in one transaction: on the embedded database 9.6 s of the
 * server's only thread for about 250,000 alerts (bench/alerts.bench.ts), with ingest held.
 * Nothing is dropped here (the job does that); a failure is logged, and the job tries again.
 */
async function createComingAlertDays(app: FastifyInstance): Promise<void> {
  try {
    await maintainAlertPartitions(app.ctx.db, {
      now: new Date(),
      cutoff: new Date(0),
      lock: lockRetention,
    });
  } catch (error) {
    app.log.warn({ err: error }, 'could not create the coming days of alert partitions');
  }
}

/**
 * Runs the retention an hour apart, first a minute after start (JOB_CHECK_SECONDS), on one
 * replica per run (see scheduled-jobs.ts). A run that fails (the database went away) is logged
 * and tried again a minute later, until one succeeds.
 */
export const retentionPlugin = fp(async (app: FastifyInstance) => {
  await createComingAlertDays(app);
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
