import { Readable } from 'node:stream';
import {
  AlertAck,
  AlertBulk,
  AlertBulkResult,
  AlertCommentIdParams,
  AlertComments,
  AlertCommentWrite,
  AlertDetail,
  AlertExportQuery,
  AlertGroups,
  AlertGroupsBy,
  AlertGroupsByQuery,
  AlertGroupsQuery,
  AlertHistogram,
  AlertHistogramQuery,
  AlertIdParams,
  AlertListQuery,
  AlertPage,
  AlertRelated,
  AlertRelatedQuery,
  AlertStar,
  AlertStarResult,
  AlertTune,
  AlertTuneResult,
  MessageResponse,
} from '@palisade/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../plugins/errors.js';
import { principalOf } from '../../plugins/auth.js';
import { createAlertTriageService } from './alert-triage.service.js';
import { createAlertsService } from './alerts.service.js';
import { openConsoleStream } from './console-stream.js';

const errors = errorResponses(401, 403, 404, 409, 422);
const CONTENT_TYPE = { csv: 'text/csv; charset=utf-8', ndjson: 'application/x-ndjson' } as const;

export const alertsRoutes: FastifyPluginAsyncZod = async (app) => {
  const alerts = createAlertsService(app.ctx.db);
  const triage = createAlertTriageService(app.ctx.db);
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
    '/alerts/groups/by',
    {
      ...signedIn,
      schema: {
        tags,
        querystring: AlertGroupsByQuery,
        response: { 200: AlertGroupsBy, ...errors },
      },
    },
    (request) => alerts.groupsBy(principalOf(request), request.query),
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
  /** The filtered alerts as a download, streamed as they are read. */
  app.get(
    '/alerts/export',
    {
      ...signedIn,
      schema: {
        tags,
        querystring: AlertExportQuery,
        response: { 200: z.unknown().describe('CSV, or NDJSON of Alert'), ...errors },
      },
    },
    async (request, reply) =>
      reply
        .type(CONTENT_TYPE[request.query.format])
        .header('content-disposition', `attachment; filename="alerts.${request.query.format}"`)
        .send(Readable.from(await alerts.export(principalOf(request), request.query))),
  );
  app.get(
    '/alerts/:id',
    {
      ...signedIn,
      schema: { tags, params: AlertIdParams, response: { 200: AlertDetail, ...errors } },
    },
    (request) => alerts.detail(principalOf(request), request.params.id),
  );
  app.get(
    '/alerts/:id/related',
    {
      ...signedIn,
      schema: {
        tags,
        params: AlertIdParams,
        querystring: AlertRelatedQuery,
        response: { 200: AlertRelated, ...errors },
      },
    },
    (request) => alerts.related(principalOf(request), request.params.id, request.query),
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
    '/alerts/bulk',
    {
      ...signedIn,
      schema: { tags, body: AlertBulk, response: { 200: AlertBulkResult, ...errors } },
    },
    (request) => alerts.bulk(principalOf(request), request.body),
  );
  app.put(
    '/alerts/:id/star',
    {
      ...signedIn,
      schema: {
        tags,
        params: AlertIdParams,
        body: AlertStar,
        response: { 200: AlertStarResult, ...errors },
      },
    },
    (request) => triage.star(principalOf(request), request.params.id, request.body.starred),
  );
  app.post(
    '/alerts/:id/comments',
    {
      ...signedIn,
      schema: {
        tags,
        params: AlertIdParams,
        body: AlertCommentWrite,
        response: { 201: AlertComments, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await triage.comment(principalOf(request), request.params.id, request.body.body)),
  );
  app.put(
    '/alerts/comments/:id',
    {
      ...signedIn,
      schema: {
        tags,
        params: AlertCommentIdParams,
        body: AlertCommentWrite,
        response: { 200: AlertComments, ...errors },
      },
    },
    (request) => triage.editComment(principalOf(request), request.params.id, request.body.body),
  );
  app.delete(
    '/alerts/comments/:id',
    {
      ...signedIn,
      schema: {
        tags,
        params: AlertCommentIdParams,
        response: { 200: AlertComments, ...errors },
      },
    },
    (request) => triage.deleteComment(principalOf(request), request.params.id),
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
