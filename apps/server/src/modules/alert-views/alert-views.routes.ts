import {
  AlertView,
  AlertViewUpdate,
  AlertViewWrite,
  IdParams,
  ListQuery,
  listResponse,
  MessageResponse,
} from '@palisade/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/errors.js';
import { principalOf } from '../../plugins/auth.js';
import { createAlertViewsService } from './alert-views.service.js';

const errors = errorResponses(401, 403, 404, 409, 422);

/** Saved views of the alerts screen: the caller's own and the organization's shared ones. */
export const alertViewsRoutes: FastifyPluginAsyncZod = async (app) => {
  const views = createAlertViewsService(app.ctx.db);
  const signedIn = { onRequest: app.requireUser };
  const tags = ['alerts'];
  const path = '/alertviews/';

  app.get(
    path,
    {
      ...signedIn,
      schema: {
        tags,
        querystring: ListQuery,
        response: { 200: listResponse(AlertView), ...errors },
      },
    },
    (request) => views.list(principalOf(request), request.query),
  );
  app.post(
    path,
    {
      ...signedIn,
      schema: { tags, body: AlertViewWrite, response: { 201: AlertView, ...errors } },
    },
    async (request, reply) =>
      reply.status(201).send(await views.create(principalOf(request), request.body)),
  );
  app.put(
    `${path}:id`,
    {
      ...signedIn,
      schema: {
        tags,
        params: IdParams,
        body: AlertViewUpdate,
        response: { 200: AlertView, ...errors },
      },
    },
    (request) => views.update(principalOf(request), request.params.id, request.body),
  );
  app.delete(
    `${path}:id`,
    {
      ...signedIn,
      schema: { tags, params: IdParams, response: { 200: MessageResponse, ...errors } },
    },
    async (request) => {
      await views.remove(principalOf(request), request.params.id);
      return { msg: 'View deleted' };
    },
  );
};
