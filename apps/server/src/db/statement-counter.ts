import { AsyncLocalStorage } from 'node:async_hooks';
import { statementText, type Database, type Queryable } from './client.js';

/**
 * Records the statements a database runs on behalf of one piece of work (a request), so that a
 * test can check that a write or a list costs the same number of statements for 1 row or 1,000.
 */
export interface StatementCounter {
  /** Runs work and gives back the SQL of every statement it sent (COPY included), in order. */
  during<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }>;
}

/**
 * Wraps the database seam: each query and COPY is recorded when it is sent from inside
 * `during`. The work is followed through its asynchronous continuations (AsyncLocalStorage),
 * so that what other work runs meanwhile (a timer's retention job) is not counted with it.
 * BEGIN and COMMIT are not recorded: they are the transaction's, not the caller's.
 */
export function countStatements(db: Database): { db: Database; counter: StatementCounter } {
  const current = new AsyncLocalStorage<string[]>();
  const record = (sql: string) => current.getStore()?.push(sql);
  const counted = (target: Queryable): Queryable => ({
    query: (sql, params) => {
      record(statementText(sql));
      return target.query(sql, params);
    },
    copyFrom: (copySql, rows, options) => {
      record(copySql);
      return target.copyFrom(copySql, rows, options);
    },
  });
  const wrapped: Database = {
    ...counted(db),
    kind: db.kind,
    transaction: (fn) => db.transaction((tx) => fn(counted(tx))),
    listen: (channel, handler, onReconnect) => db.listen(channel, handler, onReconnect),
    close: () => db.close(),
  };
  const counter: StatementCounter = {
    async during(work) {
      const statements: string[] = [];
      const result = await current.run(statements, work);
      return { result, statements };
    },
  };
  return { db: wrapped, counter };
}
