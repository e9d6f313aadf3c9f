import type { Queryable } from './client.js';

/** When a table is vacuumed: PostgreSQL's autovacuum defaults for dead rows. */
export interface VacuumLimits {
  /** autovacuum_vacuum_threshold */
  deadRows: number;
  /** autovacuum_vacuum_scale_factor: of the table's rows. */
  deadShare: number;
}

export const EMBEDDED_VACUUM_LIMITS: VacuumLimits = { deadRows: 50, deadShare: 0.2 };

/**
 * Vacuums the table with the most dead rows past `limits`, if any; answers its name.
 *
 * PGlite runs PostgreSQL as a single-user backend, which has no autovacuum: rows that retention
 * deletes (metric samples, agent log lines, audit records) and the old versions that updates
 * leave never give their space back, so those tables grow with every row ever written (a table
 * of 100,000 rows deleted and written again three times: 26, 53, 79 MB; after a VACUUM the next
 * 100,000 reuse the space). One table a call: a VACUUM holds the database, and this thread, for
 * as long as it reads the table. Rows only ever added (the alerts' day partitions) are not
 * vacuumed for that: autovacuum's insert threshold would read every big partition again.
 */
export async function vacuumMostDead(
  db: Queryable,
  limits: VacuumLimits = EMBEDDED_VACUUM_LIMITS,
): Promise<string | undefined> {
  const [table] = await db.query<{ name: string }>(
    `SELECT format('%I.%I', s.schemaname, s.relname) AS name
       FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
      WHERE c.relkind = 'r'
        AND s.n_dead_tup > $1 + $2 * greatest(c.reltuples, s.n_live_tup, 0)
      ORDER BY s.n_dead_tup DESC
      LIMIT 1`,
    [limits.deadRows, limits.deadShare],
  );
  if (table === undefined) return undefined;
  await db.query(`VACUUM ${table.name}`);
  return table.name;
}
