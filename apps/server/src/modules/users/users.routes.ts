import {
  IdParams,
  ListQuery,
  listResponse,
  MessageResponse,
  User,
  UserCreate,
  UserUpdate,
  UserUpdateMe,
} from '@palisade/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/errors.js';
import { principalOf } from '../../plugins/auth.js';
import { createUsersService } from './users.service.js';

const errors = errorResponses(400, 401, 403, 404, 409, 422);

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const users = createUsersService(app.ctx.db);
  const signedIn = { onRequest: app.requireUser };
  const tags = ['users'];

  app.get(
    '/users/me',
    { ...signedIn, schema: { tags, response: { 200: User, ...errors } } },
    (request) => users.me(principalOf(request)),
  );

  app.put(
    '/users/me',
    { ...signedIn, schema: { tags, body: UserUpdateMe, response: { 200: User, ...errors } } },
    (request) => users.updateMe(principalOf(request), request.body),
  );

  app.get(
    '/users/',
    {
      ...signedIn,
      schema: { tags, querystring: ListQuery, response: { 200: listResponse(User), ...errors } },
    },
    (request) => users.list(principalOf(request), request.query),
  );

  app.post(
    '/users/',
    { ...signedIn, schema: { tags, body: UserCreate, response: { 201: User, ...errors } } },
    async (request, reply) =>
      reply.status(201).send(await users.create(principalOf(request), request.body)),
  );

  app.get(
    '/users/:id',
    { ...signedIn, schema: { tags, params: IdParams, response: { 200: User, ...errors } } },
    (request) => users.get(principalOf(request), request.params.id),
  );

  app.put(
    '/users/:id',
    {
      ...signedIn,
      schema: { tags, params: IdParams, body: UserUpdate, response: { 200: User, ...errors } },
    },
    (request) => users.update(principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/users/:id',
    {
      ...signedIn,
      schema: { tags, params: IdParams, response: { 200: MessageResponse, ...errors } },
    },
    async (request) => {
      await users.remove(principalOf(request), request.params.id);
      return { msg: 'User deleted' };
    },
  );
};
