import { ExpiringList, ExpiringQuery } from '@palisade/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { principalOf } from '../../plugins/auth.js';
import { errorResponses } from '../../plugins/errors.js';
import { createExpiryService } from './expiry.service.js';

const errors = errorResponses(401, 422);

export const expiryRoutes: FastifyPluginAsyncZod = async (app) => {
  const expiry = createExpiryService(app.ctx.db);
  app.get(
    '/expiring',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['expiry'],
        querystring: ExpiringQuery,
        response: { 200: ExpiringList, ...errors },
      },
    },
    (request) => expiry.list(principalOf(request), request.query.days),
  );
};
