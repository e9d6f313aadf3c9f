import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { asUnavailable, DatabaseUnavailableError } from './errors.js';
import { startPglite } from './pglite-start.js';

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

/**
 * A hot statement (a fleet's heartbeats, alert batches) that each connection plans once and then
 * only runs: planning such a statement cost PGlite some 2 ms of its one thread each time, more
 * than running it for dozens of rows. `name` is unique in the process; parameters must have
 * types the SQL itself makes clear (`$1::json`).
 */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

export type Statement = string | PreparedStatement;

/** A statement's SQL, prepared or not (what logs and statement counts show). */
export const statementText = (statement: Statement): string =>
  typeof statement === 'string' ? statement : statement.text;

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: Statement, params?: SqlParam[]): Promise<Row[]>;
  /**
   * Bulk load: `COPY table (columns) FROM STDIN` fed with rows in COPY's text format (see
   * `copyTextLine`), as text or as its UTF-8 bytes (`copyTextBytes`, cheaper for many lines).
   * The fastest way in for many rows (alert ingest, rule imports), inside the caller's
   * transaction. Rows may come as chunks from an async source: a PostgreSQL server
   * then loads each chunk while the next is produced (an error thrown by the source aborts the
   * COPY, and so the transaction).
   */
  copyFrom(copySql: string, rows: CopyRows, options?: CopyOptions): Promise<void>;
}

/** COPY text: whole, or chunks from an async source; each as a string or its UTF-8 bytes. */
export type CopyRows = string | Uint8Array | AsyncIterable<string | Uint8Array>;

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
   * A lost connection is opened again by itself; onReconnect runs once it listens again, since
   * what was notified meanwhile was missed (treat it as "everything may have changed").
   */
  listen(
    channel: string,
    handler: (payload: string) => void,
    onReconnect?: () => void,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… ; without it the embedded database lives in `${dataDir}/pglite`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Test seam: an in-memory PGlite instead of a folder. */
  inMemory?: boolean;
  /** Test seam: the in-memory PGlite starts from this data folder image (see startPglite). */
  image?: Blob | undefined;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  if (options.inMemory) return pgliteDatabase(await startPglite(undefined, options));
  return pgliteDatabase(await startPglite(path.join(options.dataDir, 'pglite')));
}

/**
 * A parameter as an SQL constant, for EXECUTE (PGlite's statements with parameters are parsed and
 * planned anew each time). The server keeps standard_conforming_strings on, so a quote doubled
 * is the only escape a string needs; the prepared statement's parameter types convert it.
 */
function sqlConstant(value: SqlParam): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : `'${value}'`;
  if (value instanceof Date) return `'${value.toISOString()}'`;
  if (Array.isArray(value)) {
    const elements = value.map((element) =>
      element === null ? 'NULL' : `"${String(element).replace(/["\\]/g, '\\$&')}"`,
    );
    return `'${`{${elements.join(',')}}`.replaceAll("'", "''")}'`;
  }
  return `'${value.replaceAll("'", "''")}'`;
}

/** The Database seam over an open PGlite instance (benchmarks reach the instance itself too). */
export function pgliteDatabase(db: PGlite): Database {
  /** Statement name → the name this session prepared it under. */
  const prepared = new Map<string, string>();
  let preparations = 0;
  const runPrepared = async <Row>(
    target: Pick<PGlite, 'query' | 'exec'>,
    statement: PreparedStatement,
    params: SqlParam[] = [],
  ) => {
    let name = prepared.get(statement.name);
    if (name === undefined) {
      // A fresh name each attempt: two first uses at once (one inside a transaction, which
      // holds the database) each prepare their own rather than wait on the other's.
      preparations += 1;
      const candidate = `${statement.name}_${preparations}`;
      await target.query(`PREPARE ${candidate} AS ${statement.text}`);
      if (!prepared.has(statement.name)) prepared.set(statement.name, candidate);
      name = candidate;
    }
    // The simple protocol: one round trip into the database instead of five.
    const [result] = await target.exec(`EXECUTE ${name}(${params.map(sqlConstant).join(', ')})`);
    return (result?.rows ?? []) as Row[];
  };
  const run = async <Row>(
    target: Pick<PGlite, 'query' | 'exec'>,
    sql: Statement,
    params?: SqlParam[],
  ) =>
    typeof sql === 'string'
      ? (await target.query<Row>(sql, params as unknown[] | undefined)).rows
      : runPrepared<Row>(target, sql, params);
  // Typed here: PGlite types its file system with emscripten's types, which are not installed.
  const files = db.Module.FS as unknown as {
    writeFile(path: string, data: Uint8Array): void;
    unlink(path: string): void;
  };
  let copies = 0;
  /**
   * PGlite reads COPY input from a file: one of its own in-memory file system (emscripten's
   * MEMFS, where reading is one copy of the bytes), not its `/dev/blob` device, which copies a
   * byte at a time in JavaScript (2% of the server's CPU while it ingested alerts).
   */
  const copy = async (
    target: Pick<PGlite, 'query' | 'exec'>,
    copySql: string,
    rows: CopyRows,
    skipReferenceChecks = false,
  ) => {
    // Embedded: the database runs on this thread, so there is nothing to overlap; one file.
    const chunks: Uint8Array[] = [];
    const bytes = (chunk: string | Uint8Array) =>
      typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (typeof rows === 'string' || rows instanceof Uint8Array) chunks.push(bytes(rows));
    else for await (const chunk of rows) chunks.push(bytes(chunk));
    copies += 1;
    const file = `/tmp/palisade-copy-${copies}`;
    const [only] = chunks;
    files.writeFile(file, chunks.length === 1 && only ? only : Buffer.concat(chunks));
    try {
      // Foreign keys are checked by triggers, which the replica role does not fire (a trigger
      // of the schema's own on a table loaded this way must be ENABLE ALWAYS); the role is
      // back to normal for the next statement.
      if (skipReferenceChecks) await target.query('SET LOCAL session_replication_role = replica');
      await target.query(copySql.replace(/FROM STDIN/i, `FROM '${file}'`));
      if (skipReferenceChecks) await target.query('SET LOCAL session_replication_role = origin');
    } finally {
      files.unlink(file);
    }
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

/**
 * TCP keep-alive on every connection: a server that vanished without closing them (a host
 * gone, a failover) is noticed by the kernel's probes, so that even a LISTEN connection, which
 * never sends anything, errors and is opened again.
 */
const KEEP_ALIVE = { keepAlive: true, keepAliveInitialDelayMillis: 10_000 } as const;

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, ...KEEP_ALIVE });
  // An idle client dropped by the server must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  /**
   * Every client listens for errors its whole life. The pool stops listening when it hands a
   * client out, before the caller can: a backend terminated right after its connection was
   * made sends its error in the same packet as "ready", in that gap, and an 'error' with no
   * listener ends the process. A client that errs is marked broken and never reused.
   */
  const brokenBy = new WeakMap<pg.Client, Error>();
  pool.on('connect', (client) => {
    client.on('error', (error) => brokenBy.set(client, error));
  });
  const listeners = new Set<() => Promise<void>>();
  // Fail at start, with the server's own message, rather than on the first request.
  const probe = await pool.connect();
  probe.release();
  const run = async <Row>(target: pg.PoolClient, sql: Statement, params?: SqlParam[]) => {
    try {
      // node-postgres prepares a named statement once per connection.
      const config = typeof sql === 'string' ? { text: sql } : { name: sql.name, text: sql.text };
      return (await target.query({ ...config, values: params })).rows as Row[];
    } catch (error) {
      throw asUnavailable(error);
    }
  };
  const copy = async (client: pg.PoolClient, copySql: string, rows: CopyRows) => {
    const source =
      typeof rows === 'string' || rows instanceof Uint8Array
        ? Readable.from([rows])
        : Readable.from(rows);
    try {
      await pipeline(source, client.query(copyFrom(copySql)));
    } catch (error) {
      throw asUnavailable(error);
    }
  };
  /**
   * A connection of the caller's own (transaction, COPY). The pool listens for errors only on
   * idle clients: a connection lost while checked out (its backend terminated between two
   * statements) would emit an unhandled 'error' and end the process. This listener keeps it,
   * and a client that broke is destroyed on release instead of going back to the pool.
   */
  const acquire = async () => {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw new DatabaseUnavailableError(error);
    }
    let broken: Error | undefined;
    const onError = (error: Error) => {
      broken = error;
    };
    client.on('error', onError);
    const release = () => {
      client.removeListener('error', onError);
      client.release(broken ?? brokenBy.get(client));
    };
    return { client, release };
  };
  return {
    kind: 'postgres',
    async query<Row>(sql: Statement, params?: SqlParam[]) {
      const { client, release } = await acquire();
      try {
        return await run<Row>(client, sql, params);
      } finally {
        release();
      }
    },
    async copyFrom(copySql, rows) {
      const { client, release } = await acquire();
      try {
        await copy(client, copySql, rows);
      } finally {
        release();
      }
    },
    async transaction(fn) {
      const { client, release } = await acquire();
      try {
        await run(client, 'BEGIN');
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
        await run(client, 'COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw asUnavailable(error);
      } finally {
        release();
      }
    },
    listen: async (channel, handler, onReconnect) => {
      const stop = await listenOnPostgres({ url, channel, handler, onReconnect });
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

/** First wait before listening again after the connection was lost; doubles up to the cap. */
const LISTEN_RETRY_FIRST_MS = 250;
const LISTEN_RETRY_MAX_MS = 10_000;

/**
 * A dedicated connection per channel (LISTEN needs one that stays open). When it is lost it is
 * opened again with a back-off (250 ms doubling to 10 s, jittered) until LISTEN succeeds, then
 * onReconnect runs: notifications sent during the gap were not heard.
 */
async function listenOnPostgres(options: {
  url: string;
  channel: string;
  handler: (payload: string) => void;
  onReconnect: (() => void) | undefined;
}) {
  const { url, channel, handler, onReconnect } = options;
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;

  const open = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, ...KEEP_ALIVE });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (client === next) client = undefined;
      next.end().catch(() => undefined);
      if (!stopped) scheduleReconnect();
    };
    next.on('notification', (message) => {
      if (message.channel === channel) handler(message.payload ?? '');
    });
    next.on('error', onLost);
    next.on('end', onLost);
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      onLost();
      throw error;
    }
    if (stopped) {
      lost = true;
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
  };

  const scheduleReconnect = () => {
    clearTimeout(retry);
    const backoff = Math.min(LISTEN_RETRY_FIRST_MS * 2 ** failures, LISTEN_RETRY_MAX_MS);
    failures += 1;
    const delay = backoff / 2 + Math.random() * (backoff / 2);
    retry = setTimeout(() => {
      open()
        .then(() => {
          if (stopped || client === undefined) return;
          failures = 0;
          onReconnect?.();
        })
        // A failed attempt already scheduled the next one (onLost).
        .catch(() => undefined);
    }, delay);
    retry.unref();
  };

  try {
    await open();
  } catch (error) {
    // At start a database that cannot be reached is an error of the caller's, not retried.
    stopped = true;
    clearTimeout(retry);
    throw error;
  }
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const current = client;
    client = undefined;
    await current?.end().catch(() => undefined);
  };
}
