import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

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
  /**
   * Bulk load: `COPY table (columns) FROM STDIN` fed with rows in COPY's text format (see
   * `copyTextLine`). The fastest way in for many rows (alert ingest, rule imports), inside the
   * caller's transaction. Rows may come as chunks from an async source: a PostgreSQL server
   * then loads each chunk while the next is produced (an error thrown by the source aborts the
   * COPY, and so the transaction).
   */
  copyFrom(
    copySql: string,
    rows: string | AsyncIterable<string>,
    options?: CopyOptions,
  ): Promise<void>;
}

export interface CopyOptions {
  /**
   * Every foreign key of the rows was read from the database earlier in this transaction. The
   * embedded database has one connection, so nothing can delete what they point to before the
   * commit: inside a transaction it skips the per-row checks (most of the time such a COPY
   * takes there). A PostgreSQL server always checks them: other connections could.
   */
  referencesRead?: boolean;
}

/** The one database seam: PGlite (embedded) or a PostgreSQL server, same SQL on both. */
export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction: everything it does commits together or not at all. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * LISTEN on a channel: handler gets each NOTIFY payload, from this process or another
   * replica, after the notifying transaction committed. Returns the unsubscribe function.
   */
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
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
  return pgliteDatabase(folder ? await PGlite.create(folder) : await PGlite.create());
}

/** The Database seam over an open PGlite instance (benchmarks reach the instance itself too). */
export function pgliteDatabase(db: PGlite): Database {
  const run = async <Row>(target: Pick<PGlite, 'query'>, sql: string, params?: SqlParam[]) =>
    (await target.query<Row>(sql, params as unknown[] | undefined)).rows;
  // PGlite reads COPY input from a blob it names /dev/blob.
  const copy = async (
    target: Pick<PGlite, 'query'>,
    copySql: string,
    rows: string | AsyncIterable<string>,
    skipReferenceChecks = false,
  ) => {
    // Embedded: the database runs on this thread, so there is nothing to overlap; one blob.
    const chunks: string[] = [];
    if (typeof rows === 'string') chunks.push(rows);
    else for await (const chunk of rows) chunks.push(chunk);
    // Foreign keys are checked by triggers, which the replica role does not fire. There are no
    // other triggers in the schema; the role is back to normal for the next statement.
    if (skipReferenceChecks) await target.query('SET LOCAL session_replication_role = replica');
    await target.query(copySql.replace(/FROM STDIN/i, "FROM '/dev/blob'"), [], {
      blob: new Blob(chunks),
    });
    if (skipReferenceChecks) await target.query('SET LOCAL session_replication_role = origin');
  };
  return {
    kind: 'pglite',
    query: (sql, params) => run(db, sql, params),
    copyFrom: (copySql, rows) => copy(db, copySql, rows),
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({
          query: (sql, params) => run(tx, sql, params),
          copyFrom: (copySql, rows, options) =>
            copy(tx, copySql, rows, options?.referencesRead === true),
        }),
      ),
    listen: (channel, handler) => db.listen(channel, handler),
    close: () => db.close(),
  };
}

// int8 (counts, bigint ids) as JS numbers: every value we keep fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client dropped by the server must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const listeners = new Set<() => Promise<void>>();
  // Fail at start, with the server's own message, rather than on the first request.
  const probe = await pool.connect();
  probe.release();
  const run = async <Row>(target: pg.Pool | pg.PoolClient, sql: string, params?: SqlParam[]) =>
    (await target.query(sql, params)).rows as Row[];
  const copy = async (
    client: pg.PoolClient,
    copySql: string,
    rows: string | AsyncIterable<string>,
  ) => {
    const source = typeof rows === 'string' ? Readable.from([rows]) : Readable.from(rows);
    await pipeline(source, client.query(copyFrom(copySql)));
  };
  return {
    kind: 'postgres',
    query: (sql, params) => run(pool, sql, params),
    async copyFrom(copySql, rows) {
      const client = await pool.connect();
      try {
        await copy(client, copySql, rows);
      } finally {
        client.release();
      }
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        // One connection runs one statement at a time: queue what the caller sends at once.
        let queue: Promise<unknown> = Promise.resolve();
        const serial = <T>(work: () => Promise<T>): Promise<T> => {
          const next = queue.then(work, work);
          queue = next.catch(() => undefined);
          return next;
        };
        const result = await fn({
          query: (sql, params) => serial(() => run(client, sql, params)),
          copyFrom: (copySql, rows) => serial(() => copy(client, copySql, rows)),
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    listen: async (channel, handler) => {
      const stop = await listenOnPostgres(url, channel, handler);
      const unsubscribe = async () => {
        listeners.delete(unsubscribe);
        await stop();
      };
      listeners.add(unsubscribe);
      return unsubscribe;
    },
    async close() {
      for (const stop of [...listeners]) await stop();
      await pool.end();
    },
  };
}

/**
 * A dedicated connection per channel (LISTEN needs one that stays open), re-established
 * with a back-off when the server goes away.
 */
async function listenOnPostgres(url: string, channel: string, handler: (payload: string) => void) {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.channel === channel) handler(message.payload ?? '');
    });
    next.on('error', () => {
      if (stopped) return;
      void next.end().catch(() => undefined);
      retry = setTimeout(() => void connect().catch(() => undefined), 1000);
    });
    await next.connect();
    await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    client = next;
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}
