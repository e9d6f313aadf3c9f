import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  EMBEDDED_CHECKPOINT_LIMITS,
  checkpointIfDue,
  type CheckpointLimits,
} from '../db/embedded-checkpoints.js';
import { analyzeDueTables } from '../db/embedded-analyze.js';
import { vacuumMostDead } from '../db/embedded-vacuum.js';

/** How often the server asks whether a checkpoint or an ANALYZE is due: small statements. */
const LOOK_EVERY_MS = 10_000;
/** A look starts no further ANALYZE after this long (one of a day partition takes ~330 ms). */
const ANALYZE_BUDGET_MS = 250;
/** Every this many looks, it also looks for a table to vacuum (a minute, as autovacuum_naptime). */
const VACUUM_EVERY_LOOKS = 6;

export interface EmbeddedMaintenanceOptions {
  checkpoints?: CheckpointLimits;
  lookEveryMs?: number;
}

/**
 * The background work a single-user PostgreSQL lacks, on PGlite only (a PostgreSQL server has its
 * checkpointer and autovacuum): checkpoints (see checkpointIfDue), the planner's statistics of
 * tables whose rows changed (see analyzeDueTables) and vacuuming tables with many dead rows (see
 * vacuumMostDead), one at a time on the server's own thread. The last look is awaited on close,
 * before the database closes.
 */
export const embeddedMaintenancePlugin = fp(
  async (app: FastifyInstance, options: EmbeddedMaintenanceOptions) => {
    const { db } = app.ctx;
    if (db.kind !== 'pglite') return;
    let looks = 0;
    const look = async () => {
      looks += 1;
      await checkpointIfDue(db, options.checkpoints ?? EMBEDDED_CHECKPOINT_LIMITS);
      const analysed = await analyzeDueTables(db, ANALYZE_BUDGET_MS);
      if (analysed.length > 0) app.log.debug({ tables: analysed }, 'analysed');
      if (looks % VACUUM_EVERY_LOOKS === 0) {
        const vacuumed = await vacuumMostDead(db);
        if (vacuumed !== undefined) app.log.debug({ table: vacuumed }, 'vacuumed');
      }
    };
    let looking: Promise<void> | undefined;
    const tick = setInterval(() => {
      looking ??= look()
        .catch((error: unknown) => app.log.warn({ err: error }, 'embedded database upkeep failed'))
        .finally(() => {
          looking = undefined;
        });
    }, options.lookEveryMs ?? LOOK_EVERY_MS);
    tick.unref();
    app.addHook('onClose', async () => {
      clearInterval(tick);
      await looking;
    });
  },
  { name: 'embedded-maintenance' },
);
