import {
  AccessToken,
  LoginForm,
  MessageResponse,
  PasswordRecoveryParams,
  ResetPassword,
  User,
  UserRegister,
} from '@palisade/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/errors.js';
import { createUsersService } from '../users/users.service.js';
import { createAuthService } from './auth.service.js';

const errors = errorResponses(400, 403, 404, 409, 422, 429);

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const auth = createAuthService(app.ctx, createUsersService(app.ctx.db));
  const tags = ['login'];

  app.post(
    '/login/access-token',
    { schema: { tags, body: LoginForm, response: { 200: AccessToken, ...errors } } },
    (request) =>
      auth.login({
        email: request.body.username,
        password: request.body.password,
        address: request.ip,
        requestId: request.id,
      }),
  );

  app.post(
    '/password-recovery/:username',
    {
      schema: {
        tags,
        params: PasswordRecoveryParams,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      await auth.recoverPassword(request.params.username, request.ip);
      return { msg: 'Password recovery email sent' };
    },
  );

  app.post(
    '/reset-password/',
    { schema: { tags, body: ResetPassword, response: { 200: MessageResponse, ...errors } } },
    async (request) => {
      await auth.resetPassword(request.body.token, request.body.new_password, request.id);
      return { msg: 'Password updated successfully' };
    },
  );

  app.post(
    '/users/open',
    { schema: { tags: ['users'], body: UserRegister, response: { 201: User, ...errors } } },
    async (request, reply) => reply.status(201).send(await auth.register(request.body, request.ip)),
  );
};
