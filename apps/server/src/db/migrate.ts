import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Database, Queryable } from './client.js';

/**
 * The SQL files, read where they are kept: from `src/db/migrate.ts` (tsx, tests) and from
 * `dist/db/migrate.js` (the built server) this is the same folder, so a build made by `tsc -b`
 * alone starts as well as one made by `npm run build`.
 */
const MIGRATIONS_DIR = fileURLToPath(new URL('../../src/db/migrations/', import.meta.url));
// Any constant: replicas starting together take turns applying migrations.
const MIGRATION_LOCK = 7_262_001;

/**
 * Applies the versioned SQL files of migrations/ that this database has not seen, in name
 * order, all in one transaction. Files are never edited once landed: add a new one. `after`
 * runs in that transaction with the versions applied, for what SQL alone cannot redo (stored
 * renders of a format that changed): it happens exactly once, on the replica that migrated.
 */
export async function migrate(
  db: Database,
  after?: (tx: Queryable, applied: string[]) => Promise<void>,
): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort();
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version text PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const done = new Set(
      (await tx.query<{ version: string }>('SELECT version FROM schema_migrations')).map(
        (row) => row.version,
      ),
    );
    const applied: string[] = [];
    for (const file of files) {
      const version = file.replace(/\.sql$/, '');
      if (done.has(version)) continue;
      const sql = await readFile(MIGRATIONS_DIR + file, 'utf8');
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
      applied.push(version);
    }
    if (after && applied.length > 0) await after(tx, applied);
    return applied;
  });
}

/**
 * Splits a migration into statements (the extended protocol runs one at a time). Migrations
 * keep to plain DDL: a `;` ends a statement unless inside quotes or a $$ body.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i += 1) {
    const char = sql[i];
    if (quote === null && char === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end;
      current += '\n';
      continue;
    }
    if (quote === null && (char === "'" || char === '"')) quote = char;
    else if (quote === null && char === '$' && sql.startsWith('$$', i)) {
      quote = '$$';
      current += '$';
      i += 1;
    } else if (quote === '$$' && char === '$' && sql.startsWith('$$', i)) {
      quote = null;
      current += '$';
      i += 1;
    } else if (quote !== null && quote !== '$$' && char === quote) quote = null;
    if (quote === null && char === ';') {
      if (current.trim() !== '') statements.push(current.trim());
      current = '';
      continue;
    }
    current += char;
  }
  if (current.trim() !== '') statements.push(current.trim());
  return statements;
}
