import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sourceUpdatesRepository as updates } from './rule-source-updates.repository.js';
import { ruleSourcesRepository as sources } from './rule-sources.repository.js';
import { SourceFetcher } from './source-fetch.js';
import { runUpdate, type UpdateEngine } from './source-update.js';

/**
 * How long a claimed update is held before another replica may take it over (its replica
 * died). Each phase renews it; an import of an Emerging Threats-sized archive takes seconds.
 */
const LEASE_MS = 15 * 60_000;

export interface SourceUpdateRunner {
  /** Looks for due sources and queued updates now (after `POST …/update`), on this replica. */
  kick(): void;
  /**
   * How many looks this replica has finished: a test waits for two more (the second begun
   * after it started waiting) to know what a look would do, rather than sleeping.
   */
  looks(): number;
}

declare module 'fastify' {
  interface FastifyInstance {
    ruleSourceUpdates: SourceUpdateRunner;
  }
}

/**
 * Runs rule source updates on this replica: every JOB_CHECK_SECONDS (and when kicked) it
 * queues the sources whose time has come, then claims queued updates one at a time, each
 * claim a `FOR UPDATE SKIP LOCKED` on the update's row, so each update runs on one replica.
 */
export function startSourceUpdates(app: FastifyInstance): SourceUpdateRunner {
  const { db, config, secrets } = app.ctx;
  const shutdown = new AbortController();
  const engine: UpdateEngine = {
    db,
    secrets,
    fetcher: new SourceFetcher({
      timeoutMs: config.ruleSourcesTimeoutSeconds * 1000,
      maxBytes: config.importMaxBytes,
      publicOnly: config.ruleSourcesPublicOnly,
      signal: shutdown.signal,
    }),
    dataDir: config.dataDir,
    importMaxBytes: config.importMaxBytes,
    leaseMs: LEASE_MS,
    log: app.log,
  };
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;
  let looks = 0;

  const drain = async () => {
    await sources.enqueueDue(db);
    while (!closed) {
      const claim = await updates.claim(db, randomUUID(), LEASE_MS);
      if (!claim) return;
      await runUpdate(engine, claim);
    }
  };

  const kick = () => {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((error: unknown) => app.log.warn({ err: error }, 'rule source updates: look failed'))
      .finally(() => {
        running = undefined;
        looks += 1;
        if (again) {
          again = false;
          kick();
        }
      });
  };

  const tick = setInterval(kick, config.jobCheckSeconds * 1000);
  tick.unref();
  app.addHook('onClose', async () => {
    closed = true;
    clearInterval(tick);
    shutdown.abort();
    await running;
    await engine.fetcher.close();
  });
  return { kick, looks: () => looks };
}

/** The replica's rule source updates (`app.ruleSourceUpdates`), started with the server. */
export const ruleSourceUpdatesPlugin = fp(async (app: FastifyInstance) => {
  app.decorate('ruleSourceUpdates', startSourceUpdates(app));
});
