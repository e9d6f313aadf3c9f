import {
  DeviceProfile,
  DeviceProfileUpdate,
  DeviceProfileWrite,
  IdParams,
  ListQuery,
  listResponse,
  MessageResponse,
} from '@palisade/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/errors.js';
import { principalOf } from '../../plugins/auth.js';
import { createProfilesService } from './profiles.service.js';

const errors = errorResponses(401, 403, 404, 409, 422);

export const profilesRoutes: FastifyPluginAsyncZod = async (app) => {
  const profiles = createProfilesService(app.ctx.db, app.ctx.config.publicUrl);
  const signedIn = { onRequest: app.requireUser };
  const tags = ['profiles'];
  const path = '/deviceconfigurationprofiles/';

  app.get(
    path,
    {
      ...signedIn,
      schema: {
        tags,
        querystring: ListQuery,
        response: { 200: listResponse(DeviceProfile), ...errors },
      },
    },
    (request) => profiles.list(principalOf(request), request.query),
  );
  app.post(
    path,
    {
      ...signedIn,
      schema: { tags, body: DeviceProfileWrite, response: { 201: DeviceProfile, ...errors } },
    },
    async (request, reply) =>
      reply.status(201).send(await profiles.create(principalOf(request), request.body)),
  );
  app.put(
    `${path}:id`,
    {
      ...signedIn,
      schema: {
        tags,
        params: IdParams,
        body: DeviceProfileUpdate,
        response: { 200: DeviceProfile, ...errors },
      },
    },
    (request) => profiles.update(principalOf(request), request.params.id, request.body),
  );
  app.delete(
    `${path}:id`,
    {
      ...signedIn,
      schema: { tags, params: IdParams, response: { 200: MessageResponse, ...errors } },
    },
    async (request) => {
      await profiles.remove(principalOf(request), request.params.id);
      return { msg: 'Profile deleted' };
    },
  );
};
