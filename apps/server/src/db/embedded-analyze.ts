import type { Queryable } from './client.js';

/** When a table is analysed: PostgreSQL's autovacuum defaults for changed rows. */
export interface AnalyzeLimits {
  /** autovacuum_analyze_threshold */
  changedRows: number;
  /** autovacuum_analyze_scale_factor: of the table's rows. */
  changedShare: number;
}

export const EMBEDDED_ANALYZE_LIMITS: AnalyzeLimits = { changedRows: 50, changedShare: 0.1 };

/** The table most in need of an ANALYZE (see analyzeDueTables), if any. */
async function mostDue(db: Queryable, limits: AnalyzeLimits): Promise<string | undefined> {
  const [table] = await db.query<{ name: string }>(
    `SELECT format('%I.%I', s.schemaname, s.relname) AS name
       FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
      WHERE c.relkind = 'r'
        AND (s.n_mod_since_analyze > $1 + $2 * greatest(c.reltuples, 0)
             OR (c.reltuples < 0 AND pg_relation_size(c.oid) > 0))
      ORDER BY s.n_mod_since_analyze DESC, pg_relation_size(c.oid) DESC
      LIMIT 1`,
    [limits.changedRows, limits.changedShare],
  );
  return table?.name;
}

/**
 * Analyses, one after another, the tables with the most rows changed since their last ANALYZE
 * past `limits`, and tables that hold rows but were never analysed, until none is left or
 * `budgetMs` has passed (at least one, if any is due); answers their names.
 *
 * PGlite runs PostgreSQL as a single-user backend, which has no autovacuum, so nothing gathers
 * the planner's statistics: without them it takes default selectivities. Measured on a PGlite
 * store of 1,000,000 alerts over 30 day partitions, the first page of unacknowledged alerts took
 * 228 s without statistics (the planner expected 34 such alerts, not 999,000, and so compared
 * each of 1,000 devices with every alert in a nested loop) and 44 ms with them, by
 * destination port 589 ms and 38 ms, by device 202 ms and 30 ms. Like autovacuum, only tables
 * that hold rows (day partitions, not their partitioned parent). An ANALYZE holds the database
 * and this thread while it samples its table (30,000 rows at most: about 330 ms for a day
 * partition of 33,000 alerts, a few ms for a small table), hence the budget: small tables go
 * together, a big one takes a call of its own. "Never analysed" (nor vacuumed: `reltuples` -1,
 * which the catalogue keeps) covers a store written before the server analysed, and rows whose
 * changes were not counted: PGlite starts with every count at zero (measured: 1,000 rows
 * inserted, closed, opened: 0).
 */
export async function analyzeDueTables(
  db: Queryable,
  budgetMs: number,
  limits: AnalyzeLimits = EMBEDDED_ANALYZE_LIMITS,
): Promise<string[]> {
  const started = performance.now();
  const analysed: string[] = [];
  do {
    const table = await mostDue(db, limits);
    // A table the ANALYZE left due (its counts not yet sent on) is not taken twice in a call.
    if (table === undefined || analysed.includes(table)) break;
    await db.query(`ANALYZE ${table}`);
    analysed.push(table);
  } while (performance.now() - started < budgetMs);
  return analysed;
}
