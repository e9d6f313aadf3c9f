import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { scheduleJob } from '../../plugins/scheduled-jobs.js';
import { createExpiryService } from './expiry.service.js';

/** Due items go within a minute of their end date (plus JOB_CHECK_SECONDS). */
const EVERY_MS = 60_000;

/** Removes expired items every minute, on one replica per run (see scheduled-jobs.ts). */
export const expiryJob = fp(async (app: FastifyInstance) => {
  const expiry = createExpiryService(app.ctx.db);
  scheduleJob(app, {
    name: 'expiry',
    everyMs: EVERY_MS,
    retryMs: EVERY_MS,
    leaseMs: 10 * 60_000,
    run: async () => {
      const removed = await expiry.expire();
      if (removed > 0) app.log.info({ removed }, 'expired items removed');
    },
  });
});
