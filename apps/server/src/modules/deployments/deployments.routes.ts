import {
  DeploymentCreate,
  DeploymentDetail,
  Deployment,
  DeploymentListQuery,
  IdParams,
  listResponse,
  OrganizationSettings,
  OrganizationSettingsUpdate,
  PendingDeployments,
  PendingDeviceDiff,
} from '@palisade/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/errors.js';
import { principalOf } from '../../plugins/auth.js';
import { createDeploymentsService } from './deployments.service.js';

const errors = errorResponses(401, 403, 404, 409, 422);

/** The organization's deploy settings, and staged deploys with a canary gate. */
export const deploymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const deployments = createDeploymentsService(app.ctx.db, app.ctx.config.publicUrl);
  const signedIn = { onRequest: app.requireUser };
  const tags = ['deployments'];

  app.get(
    '/organization/settings',
    { ...signedIn, schema: { tags, response: { 200: OrganizationSettings, ...errors } } },
    (request) => deployments.settings(principalOf(request)),
  );
  app.put(
    '/organization/settings',
    {
      ...signedIn,
      schema: {
        tags,
        body: OrganizationSettingsUpdate,
        response: { 200: OrganizationSettings, ...errors },
      },
    },
    (request) => deployments.updateSettings(principalOf(request), request.body),
  );
  app.get(
    '/deployments/pending',
    { ...signedIn, schema: { tags, response: { 200: PendingDeployments, ...errors } } },
    (request) => deployments.pending(principalOf(request)),
  );
  app.get(
    '/devices/:id/pending-deploy',
    {
      ...signedIn,
      schema: { tags, params: IdParams, response: { 200: PendingDeviceDiff, ...errors } },
    },
    (request) => deployments.pendingDevice(principalOf(request), request.params.id),
  );
  app.get(
    '/deployments/',
    {
      ...signedIn,
      schema: {
        tags,
        querystring: DeploymentListQuery,
        response: { 200: listResponse(Deployment), ...errors },
      },
    },
    (request) => deployments.list(principalOf(request), request.query),
  );
  app.post(
    '/deployments/',
    {
      ...signedIn,
      schema: { tags, body: DeploymentCreate, response: { 201: DeploymentDetail, ...errors } },
    },
    async (request, reply) =>
      reply.status(201).send(await deployments.create(principalOf(request), request.body)),
  );
  app.get(
    '/deployments/:id',
    {
      ...signedIn,
      schema: { tags, params: IdParams, response: { 200: DeploymentDetail, ...errors } },
    },
    (request) => deployments.get(principalOf(request), request.params.id),
  );
};
