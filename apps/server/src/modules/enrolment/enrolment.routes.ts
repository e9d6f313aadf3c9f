import {
  AgentEnrol,
  AgentEnrolment,
  DeviceEnrolment,
  EnrolmentIssue,
  EnrolmentToken,
  IdParams,
} from '@palisade/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { principalOf } from '../../plugins/auth.js';
import { errorResponses } from '../../plugins/errors.js';
import { createEnrolmentService } from './enrolment.service.js';

const consoleErrors = errorResponses(401, 403, 404, 422);
const agentErrors = errorResponses(401, 422, 429);

/** Enrolment tokens: issued in the console, exchanged once by `palisade-agent enrol`. */
export const enrolmentRoutes: FastifyPluginAsyncZod = async (app) => {
  const enrolment = createEnrolmentService(app.ctx.db, app.log);
  const signedIn = { onRequest: app.requireUser };

  app.post(
    '/devices/:id/enrolment',
    {
      ...signedIn,
      schema: {
        tags: ['devices'],
        params: IdParams,
        body: EnrolmentIssue,
        response: { 201: EnrolmentToken, ...consoleErrors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await enrolment.issue(principalOf(request), request.params.id, request.body.ttl_hours),
        ),
  );
  app.get(
    '/devices/:id/enrolment',
    {
      ...signedIn,
      schema: {
        tags: ['devices'],
        params: IdParams,
        response: { 200: DeviceEnrolment, ...consoleErrors },
      },
    },
    (request) => enrolment.status(principalOf(request), request.params.id),
  );

  // Public: the token is the credential.
  app.post(
    '/agent/enrol',
    {
      schema: {
        tags: ['agent'],
        body: AgentEnrol,
        response: { 200: AgentEnrolment, ...agentErrors },
      },
    },
    (request) => enrolment.enrol(request.body, request.ip),
  );
};
