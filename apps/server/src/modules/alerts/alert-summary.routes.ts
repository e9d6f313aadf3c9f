import { AlertSummary, AlertSummaryQuery } from '@palisade/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { principalOf } from '../../plugins/auth.js';
import { errorResponses } from '../../plugins/errors.js';
import { createAlertSummaryService } from './alert-summary.js';

const errors = errorResponses(401, 403, 422);

/** GET /alerts/summary: the Home dashboard's alert figures (any signed-in user). */
export const alertSummaryRoutes: FastifyPluginAsyncZod = async (app) => {
  const summary = createAlertSummaryService(app.ctx.db);
  app.get(
    '/alerts/summary',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['alerts'],
        querystring: AlertSummaryQuery,
        response: { 200: AlertSummary, ...errors },
      },
    },
    (request) => summary.summary(principalOf(request), request.query),
  );
};
