import {
  AlertAck,
  AlertDetail,
  AlertGroups,
  AlertGroupsQuery,
  AlertHistogram,
  AlertHistogramQuery,
  AlertIdParams,
  AlertListQuery,
  AlertPage,
  AlertTune,
  AlertTuneResult,
  MessageResponse,
} from '@palisade/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/errors.js';
import { principalOf } from '../../plugins/auth.js';
import { createAlertsService } from './alerts.service.js';
import { openConsoleStream } from './console-stream.js';

const errors = errorResponses(401, 403, 404, 409, 422);

export const alertsRoutes: FastifyPluginAsyncZod = async (app) => {
  const alerts = createAlertsService(app.ctx.db);
  const signedIn = { onRequest: app.requireUser };
  const tags = ['alerts'];
  const openStreams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...openStreams]) end();
  });

  app.get(
    '/alerts/',
    {
      ...signedIn,
      schema: { tags, querystring: AlertListQuery, response: { 200: AlertPage, ...errors } },
    },
    (request) => alerts.page(principalOf(request), request.query),
  );
  app.get(
    '/alerts/groups',
    {
      ...signedIn,
      schema: { tags, querystring: AlertGroupsQuery, response: { 200: AlertGroups, ...errors } },
    },
    (request) => alerts.groups(principalOf(request), request.query, request.query.limit),
  );
  app.get(
    '/alerts/histogram',
    {
      ...signedIn,
      schema: {
        tags,
        querystring: AlertHistogramQuery,
        response: { 200: AlertHistogram, ...errors },
      },
    },
    (request) => alerts.histogram(principalOf(request), request.query, request.query.buckets),
  );
  app.get(
    '/alerts/:id',
    {
      ...signedIn,
      schema: { tags, params: AlertIdParams, response: { 200: AlertDetail, ...errors } },
    },
    (request) => alerts.detail(principalOf(request), request.params.id),
  );
  app.post(
    '/alerts/ack',
    {
      ...signedIn,
      schema: { tags, body: AlertAck, response: { 200: MessageResponse, ...errors } },
    },
    (request) =>
      alerts.acknowledge(principalOf(request), request.body.ids, request.body.acknowledged),
  );
  app.post(
    '/alerts/:id/tune',
    {
      ...signedIn,
      schema: {
        tags,
        params: AlertIdParams,
        body: AlertTune,
        response: { 200: AlertTuneResult, ...errors },
      },
    },
    (request) => alerts.tune(principalOf(request), request.params.id, request.body.action),
  );

  /** Live view: server-sent events `alerts` and `devices` when the organization's data moves. */
  app.get('/events', { ...signedIn, schema: { tags, hide: true } }, (request, reply) => {
    openConsoleStream({
      reply,
      hub: app.consoleEvents,
      orgId: principalOf(request).orgId,
      openStreams,
    });
  });
};
