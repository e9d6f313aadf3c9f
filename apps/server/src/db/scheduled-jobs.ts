import type { Queryable } from './client.js';

/** A run of a job that this replica claimed: its number, to finish it by. */
export interface JobClaim {
  name: string;
  run: number;
}

/**
 * The scheduled_jobs table: which replica runs a timed job, and when it is next due. A claim is
 * one statement on the job's row, so of replicas claiming at once exactly one wins (the others
 * wait for its row lock, then see the job no longer due).
 */
export const scheduledJobs = {
  /**
   * Claims the job when it is due (or has never run), for `leaseMs`: until then no other
   * replica takes it. Undefined when it is not due or another replica holds it.
   */
  async claim(
    db: Queryable,
    options: { name: string; leaseMs: number; replica: string },
  ): Promise<JobClaim | undefined> {
    const [row] = await db.query<{ runs: number }>(
      `INSERT INTO scheduled_jobs AS j (name, due_at, runs, started_at, started_by)
       VALUES ($1, now() + make_interval(secs => $2), 1, now(), $3)
       ON CONFLICT (name) DO UPDATE
          SET due_at = excluded.due_at, runs = j.runs + 1, started_at = now(),
              started_by = excluded.started_by, finished_at = NULL
        WHERE j.due_at <= now()
       RETURNING runs`,
      [options.name, options.leaseMs / 1000, options.replica],
    );
    return row ? { name: options.name, run: row.runs } : undefined;
  },

  /**
   * Ends a claimed run: the job is next due `nextInMs` after the run started (after a success)
   * or after now (a failure, retried sooner). Nothing happens if the lease had passed and
   * another replica claimed the job since.
   */
  async finish(
    db: Queryable,
    claim: JobClaim,
    next: { after: 'start' | 'now'; inMs: number },
  ): Promise<void> {
    await db.query(
      `UPDATE scheduled_jobs
          SET due_at = ${next.after === 'start' ? 'started_at' : 'now()'} + make_interval(secs => $3),
              finished_at = now()
        WHERE name = $1 AND runs = $2`,
      [claim.name, claim.run, next.inMs / 1000],
    );
  },
};
