import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import { scheduledJobs, type JobClaim } from '../db/scheduled-jobs.js';

export interface ScheduledJob {
  /** Its row in scheduled_jobs: the same name on every replica. */
  name: string;
  /** From the start of one run to the next. */
  everyMs: number;
  /** After a failed run (the database went away), the wait before it is tried again. */
  retryMs: number;
  /**
   * The longest a run may take: a replica that stops mid-run leaves the job claimed until then,
   * and another replica takes it over after.
   */
  leaseMs: number;
  run: () => Promise<void>;
}

/** Who claimed a run, as scheduled_jobs.started_by shows it. */
const REPLICA = `${os.hostname()}:${process.pid}`;

/**
 * Runs the job on whichever replica claims it first once it is due, so that across replicas
 * it runs once per period. Every replica looks every JOB_CHECK_SECONDS (first that long after
 * start); a look costs one statement, and a replica whose run is still going does not look.
 */
export function scheduleJob(app: FastifyInstance, job: ScheduledJob): void {
  const { db, config } = app.ctx;
  let running: Promise<void> | undefined;
  let closed = false;

  const runClaimed = async (claim: JobClaim) => {
    try {
      await job.run();
    } catch (error) {
      app.log.error(
        { err: error, job: job.name },
        `${job.name} failed; trying again in ${Math.round(job.retryMs / 1000)} s`,
      );
      await scheduledJobs.finish(db, claim, { after: 'now', inMs: job.retryMs });
      return;
    }
    await scheduledJobs.finish(db, claim, { after: 'start', inMs: job.everyMs });
  };

  const look = async () => {
    const claim = await scheduledJobs.claim(db, {
      name: job.name,
      leaseMs: job.leaseMs,
      replica: REPLICA,
    });
    if (claim && !closed) await runClaimed(claim);
  };

  const tick = setInterval(() => {
    if (running || closed) return;
    running = look()
      .catch((error: unknown) =>
        app.log.warn({ err: error, job: job.name }, 'could not look for a due job'),
      )
      .finally(() => {
        running = undefined;
      });
  }, config.jobCheckSeconds * 1000);
  tick.unref();
  app.addHook('onClose', async () => {
    closed = true;
    clearInterval(tick);
    await running;
  });
}
