import { Components, ErrorResponse, Health, PublicConfig } from '@palisade/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SERVER_VERSION } from '../../lib/version.js';
import { systemRepository } from './system.repository.js';

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;
  const tags = ['system'];

  /** Liveness: the process answers. */
  app.get('/health', { schema: { tags, response: { 200: Health } } }, () => ({
    status: 'ok' as const,
  }));

  /** Readiness: the database answers too; a load balancer sends traffic only then. */
  app.get(
    '/ready',
    { schema: { tags, response: { 200: Health, 503: Health } } },
    async (request, reply) => {
      try {
        await systemRepository.ping(db);
        return { status: 'ok' as const };
      } catch (error) {
        request.log.warn({ err: error }, 'database not ready');
        return reply.status(503).send({ status: 'unavailable' as const });
      }
    },
  );

  app.get('/config', { schema: { tags, response: { 200: PublicConfig } } }, () => ({
    auth_disabled: config.authDisabled,
    version: SERVER_VERSION,
  }));

  // Console and agent are released with the server; "registry" is what this server ships.
  app.get(
    '/components',
    {
      onRequest: app.requireUser,
      schema: { tags, response: { 200: Components, 401: ErrorResponse } },
    },
    async () => {
      // The agent's is the build this server serves and upgrades agents to, once there is one.
      const agent = (await app.ctx.agentVersion()) ?? SERVER_VERSION;
      return {
        packages: {
          server: { installed: SERVER_VERSION, registry: SERVER_VERSION },
          console: { installed: SERVER_VERSION, registry: SERVER_VERSION },
          agent: { installed: agent, registry: agent },
        },
      };
    },
  );

  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
};
