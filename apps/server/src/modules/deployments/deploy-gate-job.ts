import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { scheduleJob } from '../../plugins/scheduled-jobs.js';
import { runDeployGates } from './deployments.service.js';

/**
 * Canary gates are looked at every 5 s (at most as often as replicas look for due jobs,
 * JOB_CHECK_SECONDS), on one replica at a time: a run reads the deployments that wait.
 */
const GATE_EVERY_MS = 5_000;
const GATE_RETRY_MS = 5_000;
const GATE_LEASE_MS = 5 * 60_000;

export const deployGatePlugin = fp(async (app: FastifyInstance) => {
  scheduleJob(app, {
    name: 'deploy gate',
    everyMs: GATE_EVERY_MS,
    retryMs: GATE_RETRY_MS,
    leaseMs: GATE_LEASE_MS,
    run: async () => {
      const decided = (await runDeployGates(app.ctx.db)).filter((d) => d.decision !== 'wait');
      if (decided.length > 0) app.log.info({ decided }, 'canary gates decided');
    },
  });
});
