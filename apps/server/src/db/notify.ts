import type { Queryable } from './client.js';

/** Sends a NOTIFY on channel, delivered to its listeners when the transaction commits. */
export async function notifyChannel(
  tx: Queryable,
  channel: string,
  payload: string,
): Promise<void> {
  await tx.query('SELECT pg_notify($1, $2)', [channel, payload]);
}
