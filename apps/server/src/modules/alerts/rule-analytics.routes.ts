import {
  IdParams,
  RuleActivity,
  RuleActivityParams,
  RuleActivityQuery,
  RuleAnalytics,
  RuleAnalyticsQuery,
  SilentRules,
  SilentRulesQuery,
} from '@palisade/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { principalOf } from '../../plugins/auth.js';
import { errorResponses } from '../../plugins/errors.js';
import { createRuleAnalyticsService } from './rule-analytics.service.js';

const errors = errorResponses(401, 403, 422);

/** Rule analytics (issue 20), read from the hourly rollup; any signed-in user. */
export const ruleAnalyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  const analytics = createRuleAnalyticsService(app.ctx.db);
  app.get(
    '/ruleanalytics/',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['rule analytics'],
        querystring: RuleAnalyticsQuery,
        response: { 200: RuleAnalytics, ...errors },
      },
    },
    (request) => analytics.overview(principalOf(request), request.query),
  );
  app.get(
    '/ruleanalytics/silent/:id',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['rule analytics'],
        params: IdParams,
        querystring: SilentRulesQuery,
        response: { 200: SilentRules, ...errorResponses(401, 403, 404, 422) },
      },
    },
    (request) => analytics.silent(principalOf(request), request.params.id, request.query),
  );
  app.get(
    '/ruleanalytics/:gid/:sid',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['rule analytics'],
        params: RuleActivityParams,
        querystring: RuleActivityQuery,
        response: { 200: RuleActivity, ...errors },
      },
    },
    (request) => analytics.rule(principalOf(request), request.params, request.query),
  );
};
