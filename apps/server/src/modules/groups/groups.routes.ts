import {
  IdParams,
  ListQuery,
  listResponse,
  MessageResponse,
  RuleGroup,
  RuleGroupCreate,
  RuleGroupUpdate,
} from '@palisade/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/errors.js';
import { principalOf } from '../../plugins/auth.js';
import { createGroupsService } from './groups.service.js';

const errors = errorResponses(401, 403, 404, 409, 422);

export const groupsRoutes: FastifyPluginAsyncZod = async (app) => {
  const groups = createGroupsService(app.ctx.db);
  const signedIn = { onRequest: app.requireUser };
  const tags = ['groups'];

  app.get(
    '/groups/',
    {
      ...signedIn,
      schema: {
        tags,
        querystring: ListQuery,
        response: { 200: listResponse(RuleGroup), ...errors },
      },
    },
    (request) => groups.list(principalOf(request), request.query),
  );

  app.post(
    '/groups/',
    {
      ...signedIn,
      schema: { tags, body: RuleGroupCreate, response: { 201: RuleGroup, ...errors } },
    },
    async (request, reply) =>
      reply.status(201).send(await groups.create(principalOf(request), request.body)),
  );

  app.put(
    '/groups/:id',
    {
      ...signedIn,
      schema: {
        tags,
        params: IdParams,
        body: RuleGroupUpdate,
        response: { 200: RuleGroup, ...errors },
      },
    },
    (request) => groups.update(principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/groups/:id',
    {
      ...signedIn,
      schema: { tags, params: IdParams, response: { 200: MessageResponse, ...errors } },
    },
    async (request) => {
      await groups.remove(principalOf(request), request.params.id);
      return { msg: 'Group deleted' };
    },
  );
};
