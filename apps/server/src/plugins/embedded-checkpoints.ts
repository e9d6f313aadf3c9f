import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  EMBEDDED_CHECKPOINT_LIMITS,
  checkpointIfDue,
  type CheckpointLimits,
} from '../db/embedded-checkpoints.js';

/** How often the server asks whether a checkpoint is due: one small statement. */
const LOOK_EVERY_MS = 10_000;

export interface EmbeddedCheckpointOptions {
  limits?: CheckpointLimits;
  lookEveryMs?: number;
}

/**
 * The checkpointer the embedded database lacks (see checkpointIfDue). A PostgreSQL server has
 * its own, so this runs on PGlite only. The last look is awaited on close, before the database
 * closes.
 */
export const embeddedCheckpointsPlugin = fp(
  async (app: FastifyInstance, options: EmbeddedCheckpointOptions) => {
    const { db } = app.ctx;
    if (db.kind !== 'pglite') return;
    const limits = options.limits ?? EMBEDDED_CHECKPOINT_LIMITS;
    let looking: Promise<void> | undefined;
    const tick = setInterval(() => {
      looking ??= checkpointIfDue(db, limits)
        .then(() => undefined)
        .catch((error: unknown) => app.log.warn({ err: error }, 'could not take a checkpoint'))
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
  { name: 'embedded-checkpoints' },
);
