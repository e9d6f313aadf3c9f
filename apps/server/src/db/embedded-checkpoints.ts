import type { Queryable } from './client.js';

/**
 * When the embedded database takes a checkpoint: what PostgreSQL's own checkpointer does with
 * its defaults (max_wal_size 1 GB, checkpoint_completion_target 0.9, checkpoint_timeout 5 min).
 */
export interface CheckpointLimits {
  /** WAL written since the last checkpoint's redo point that calls for one. */
  walBytes: number;
  /** Time since the last checkpoint that calls for one, if anything was written meanwhile. */
  everyMs: number;
}

export const EMBEDDED_CHECKPOINT_LIMITS: CheckpointLimits = {
  // A server's checkpointer starts one at max_wal_size / (1 + completion target) of WAL.
  walBytes: Math.floor((1024 * 1024 * 1024) / 1.9),
  everyMs: 5 * 60_000,
};

/**
 * A checkpoint's own record: the WAL a checkpoint leaves past its redo point. Less than this
 * since the last one means nothing was written meanwhile, and a timed checkpoint is skipped.
 */
const CHECKPOINT_RECORD_BYTES = 1024;

/**
 * Takes a checkpoint when one is due by `limits`; says whether it did.
 *
 * PGlite runs PostgreSQL as a single-user backend, which has no checkpointer: without this, its
 * WAL is never recycled while the server runs (2.8 GB after 2.4 million rows, measured), and a
 * server that stops without closing the database (killed, the machine lost) replays all of it
 * at its next start. A checkpoint writes the dirty buffers (at most shared_buffers, 32 MB) and
 * recycles the segments before its redo point; it holds the database, and this thread, for
 * tens to hundreds of milliseconds.
 */
export async function checkpointIfDue(
  db: Queryable,
  limits: CheckpointLimits = EMBEDDED_CHECKPOINT_LIMITS,
): Promise<boolean> {
  const [since] = await db.query<{ wal_bytes: number; age_ms: number }>(
    `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), redo_lsn)::float8 AS wal_bytes,
            (extract(epoch FROM clock_timestamp() - checkpoint_time) * 1000)::float8 AS age_ms
       FROM pg_control_checkpoint()`,
  );
  if (since === undefined) return false;
  const due =
    since.wal_bytes >= limits.walBytes ||
    (since.age_ms >= limits.everyMs && since.wal_bytes > CHECKPOINT_RECORD_BYTES);
  if (due) await db.query('CHECKPOINT');
  return due;
}
