import type { Queryable } from '../../db/client.js';

/** Failures counted for a key in its current window, and when that window ends. */
export interface AttemptCount {
  failures: number;
  /** Seconds until the window ends and the count starts again (at least 1). */
  retryAfterSeconds: number;
}

const WINDOW_LEFT = `greatest(1, ceil(extract(epoch FROM window_started + make_interval(secs => $2) - now())))::int AS retry_after`;

/** Sign-in attempts and password-reset tokens: shared by console and agent sign-in. */
export const authRepository = {
  /** Failures counted for key within the current window (0 when none or the window passed). */
  async failures(db: Queryable, key: string, windowSeconds: number): Promise<AttemptCount> {
    const [row] = await db.query<{ failures: number; retry_after: number }>(
      `SELECT failures, ${WINDOW_LEFT} FROM auth_attempts
        WHERE key = $1 AND window_started > now() - make_interval(secs => $2)`,
      [key, windowSeconds],
    );
    return { failures: row?.failures ?? 0, retryAfterSeconds: row?.retry_after ?? windowSeconds };
  },

  /** Counts one more failure for key; a window that has passed starts again at 1. */
  async recordFailure(db: Queryable, key: string, windowSeconds: number): Promise<AttemptCount> {
    const [row] = await db.query<{ failures: number; retry_after: number }>(
      `INSERT INTO auth_attempts AS a (key, failures, window_started) VALUES ($1, 1, now())
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN a.window_started > now() - make_interval(secs => $2) THEN a.failures + 1 ELSE 1 END,
         window_started = CASE WHEN a.window_started > now() - make_interval(secs => $2) THEN a.window_started ELSE now() END
       RETURNING failures, ${WINDOW_LEFT}`,
      [key, windowSeconds],
    );
    return { failures: row?.failures ?? 1, retryAfterSeconds: row?.retry_after ?? windowSeconds };
  },

  async clear(db: Queryable, key: string): Promise<void> {
    await db.query('DELETE FROM auth_attempts WHERE key = $1', [key]);
  },

  async insertResetToken(
    db: Queryable,
    tokenHash: string,
    userId: number,
    ttlSeconds: number,
  ): Promise<void> {
    await db.query(
      `INSERT INTO password_reset_tokens (token_hash, user_id, expires_at)
       VALUES ($1, $2, now() + make_interval(secs => $3))`,
      [tokenHash, userId, ttlSeconds],
    );
  },

  /** Marks an unused, unexpired token used and returns its user; undefined if none. */
  async consumeResetToken(db: Queryable, tokenHash: string): Promise<number | undefined> {
    const [row] = await db.query<{ user_id: number }>(
      `UPDATE password_reset_tokens SET used_at = now()
        WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
        RETURNING user_id`,
      [tokenHash],
    );
    return row?.user_id;
  },

  /** A new password makes every other outstanding reset link for the user worthless. */
  async revokeResetTokens(db: Queryable, userId: number): Promise<void> {
    await db.query(
      'UPDATE password_reset_tokens SET used_at = now() WHERE user_id = $1 AND used_at IS NULL',
      [userId],
    );
  },
};
