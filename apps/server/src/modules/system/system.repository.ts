import type { Queryable } from '../../db/client.js';

export const systemRepository = {
  /** Resolves when the database answers a statement; rejects otherwise. */
  async ping(db: Queryable): Promise<void> {
    await db.query('SELECT 1');
  },
};
