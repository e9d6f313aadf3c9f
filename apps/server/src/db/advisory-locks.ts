import type { Queryable } from './client.js';

/**
 * Takes the transaction-scoped advisory lock `key` if no other session holds it; says whether
 * it did. A job that runs on one replica at a time starts each transaction with it.
 */
export async function tryAdvisoryTransactionLock(tx: Queryable, key: number): Promise<boolean> {
  const [lock] = await tx.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [
    key,
  ]);
  return lock?.ok === true;
}
