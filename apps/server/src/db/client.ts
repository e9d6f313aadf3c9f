import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export type SqlParam =
  | string
  | number
  | boolean
  | Date
  | null
  | undefined
  | (string | null)[]
  | (number | null)[]
  | boolean[];

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: SqlParam[]): Promise<Row[]>;
}

/** The one database seam: PGlite (embedded) or a PostgreSQL server, same SQL on both. */
export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction: everything it does commits together or not at all. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… ; without it the embedded database lives in `${dataDir}/pglite`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Test seam: an in-memory PGlite instead of a folder. */
  inMemory?: boolean;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  return openPglite(options.inMemory ? undefined : path.join(options.dataDir, 'pglite'));
}

async function openPglite(folder: string | undefined): Promise<Database> {
  if (folder) await mkdir(folder, { recursive: true });
  const db = folder ? await PGlite.create(folder) : await PGlite.create();
  const run = async <Row>(target: Pick<PGlite, 'query'>, sql: string, params?: SqlParam[]) =>
    (await target.query<Row>(sql, params as unknown[] | undefined)).rows;
  return {
    kind: 'pglite',
    query: (sql, params) => run(db, sql, params),
    transaction: (fn) =>
      db.transaction((tx) => fn({ query: (sql, params) => run(tx, sql, params) })),
    close: () => db.close(),
  };
}

// int8 (counts, bigint ids) as JS numbers: every value we keep fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // Fail at start, with the server's own message, rather than on the first request.
  const probe = await pool.connect();
  probe.release();
  const run = async <Row>(target: pg.Pool | pg.PoolClient, sql: string, params?: SqlParam[]) =>
    (await target.query(sql, params)).rows as Row[];
  return {
    kind: 'postgres',
    query: (sql, params) => run(pool, sql, params),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn({ query: (sql, params) => run(client, sql, params) });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
