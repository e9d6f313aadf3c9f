import {
  IdParams,
  ListQuery,
  listResponse,
  MessageResponse,
  RuleChange,
  RuleChangesQuery,
  RuleSource,
  RuleSourceCatalogue,
  RuleSourceCatalogueQuery,
  RuleSourceCreate,
  RuleSourceUpdate,
  RuleSourceUpdateDetail,
  RuleSourceUpdateParams,
  RuleSourceUpdateStarted,
  RuleSourceUpdateSummary,
} from '@palisade/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../plugins/auth.js';
import { errorResponses } from '../../plugins/errors.js';
import { createRuleSourcesService } from './rule-sources.service.js';

const errors = errorResponses(401, 403, 404, 409, 422);

export const ruleSourcesRoutes: FastifyPluginAsyncZod = async (app) => {
  const sources = createRuleSourcesService({
    db: app.ctx.db,
    secrets: app.ctx.secrets,
    runner: app.ruleSourceUpdates,
  });
  const signedIn = { onRequest: app.requireUser };
  const tags = ['rule sources'];

  app.get(
    '/rulesources/',
    {
      ...signedIn,
      schema: {
        tags,
        querystring: ListQuery,
        response: { 200: listResponse(RuleSource), ...errors },
      },
    },
    (request) => sources.list(principalOf(request), request.query),
  );

  app.post(
    '/rulesources/',
    {
      ...signedIn,
      schema: { tags, body: RuleSourceCreate, response: { 201: RuleSource, ...errors } },
    },
    async (request, reply) =>
      reply.status(201).send(await sources.create(principalOf(request), request.body)),
  );

  app.get(
    '/rulesources/catalogue',
    {
      ...signedIn,
      schema: {
        tags,
        querystring: RuleSourceCatalogueQuery,
        response: { 200: RuleSourceCatalogue, ...errors },
      },
    },
    (request) => sources.catalogue(principalOf(request), request.query.suricata_version),
  );

  app.get(
    '/rulesources/rule-changes',
    {
      ...signedIn,
      schema: {
        tags,
        querystring: RuleChangesQuery,
        response: { 200: z.object({ data: z.array(RuleChange) }), ...errors },
      },
    },
    (request) => sources.ruleChanges(principalOf(request), request.query),
  );

  app.get(
    '/rulesources/:id',
    { ...signedIn, schema: { tags, params: IdParams, response: { 200: RuleSource, ...errors } } },
    (request) => sources.get(principalOf(request), request.params.id),
  );

  app.put(
    '/rulesources/:id',
    {
      ...signedIn,
      schema: {
        tags,
        params: IdParams,
        body: RuleSourceUpdate,
        response: { 200: RuleSource, ...errors },
      },
    },
    (request) => sources.update(principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/rulesources/:id',
    {
      ...signedIn,
      schema: { tags, params: IdParams, response: { 200: MessageResponse, ...errors } },
    },
    async (request) => {
      await sources.remove(principalOf(request), request.params.id);
      return { msg: 'Rule source deleted' };
    },
  );

  app.post(
    '/rulesources/:id/update',
    {
      ...signedIn,
      schema: { tags, params: IdParams, response: { 202: RuleSourceUpdateStarted, ...errors } },
    },
    async (request, reply) =>
      reply.status(202).send(await sources.requestUpdate(principalOf(request), request.params.id)),
  );

  app.get(
    '/rulesources/:id/updates',
    {
      ...signedIn,
      schema: {
        tags,
        params: IdParams,
        querystring: ListQuery,
        response: { 200: listResponse(RuleSourceUpdateSummary), ...errors },
      },
    },
    (request) => sources.listUpdates(principalOf(request), request.params.id, request.query),
  );

  app.get(
    '/rulesources/:id/updates/:updateId',
    {
      ...signedIn,
      schema: {
        tags,
        params: RuleSourceUpdateParams,
        response: { 200: RuleSourceUpdateDetail, ...errors },
      },
    },
    (request) =>
      sources.getUpdate(principalOf(request), request.params.id, request.params.updateId),
  );

  app.get(
    '/rulesources/:id/updates/:updateId/changes',
    {
      ...signedIn,
      schema: {
        tags,
        params: RuleSourceUpdateParams,
        querystring: ListQuery,
        response: { 200: listResponse(RuleChange), ...errors },
      },
    },
    (request) =>
      sources.listChanges(
        principalOf(request),
        request.params.id,
        request.params.updateId,
        request.query,
      ),
  );
};
