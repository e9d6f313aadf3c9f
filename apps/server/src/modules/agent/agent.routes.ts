import {
  AgentAck,
  AgentAlertAck,
  AgentAlertBatch,
  AgentApplied,
  AgentBundle,
  AgentHeartbeat,
  AgentHeartbeatReply,
  AgentLogBatch,
  AgentLogin,
  AgentToken,
  MessageResponse,
} from '@palisade/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/errors.js';
import { z } from 'zod';
import { deviceOf, deviceTokenOf } from '../../plugins/device-auth.js';
import { createAgentService } from './agent.service.js';
import { agentRepository } from './agent.repository.js';
import { VersionPush } from './version-stream.js';

const errors = errorResponses(400, 401, 413, 422, 429);
/** Alert batches can be large; everything else stays under the default limit. */
const AGENT_BODY_LIMIT = 8 * 1024 * 1024;

/** The agent protocol (docs/agent-protocol.md), under /api/v1/agent/. */
export const agentRoutes: FastifyPluginAsyncZod = async (app) => {
  const agent = createAgentService(app.ctx, app.log);
  const asDevice = { onRequest: app.requireDevice };
  const push = new VersionPush(
    app.deviceEvents,
    (ids) => agentRepository.remotes(app.ctx.db, ids),
    app.log,
  );
  const stopForgetting = app.deviceEvents.subscribeAll((orgId) => agent.devicesChanged(orgId));
  // Push streams never finish by themselves: end them so shutdown is not held open.
  app.addHook('preClose', async () => {
    push.endAll();
  });
  app.addHook('onClose', async () => {
    stopForgetting();
    await agent.close();
  });
  const tags = ['agent'];

  app.post(
    '/agent/login',
    { schema: { tags, body: AgentLogin, response: { 200: AgentToken, ...errors } } },
    (request) => agent.login(request.body.device_id, request.body.password, request.ip),
  );

  app.post(
    '/agent/heartbeat',
    {
      onRequest: app.requireDeviceToken,
      // Every sensor, every 30 s: at info level the log would be little else.
      logLevel: 'warn',
      schema: { tags, body: AgentHeartbeat, response: { 200: AgentHeartbeatReply, ...errors } },
      // A fleet's most frequent answer, built by the service from typed values: written as JSON
      // without parsing it against its schema again (the schema still documents it).
      serializerCompiler: () => (data) => JSON.stringify(data),
      // Under COMPRESS_THRESHOLD_BYTES whatever it holds: the compression hooks would only look.
      compress: false,
    },
    (request) => agent.heartbeat(deviceTokenOf(request), request.body),
  );

  app.get(
    '/agent/bundle',
    {
      // The token is checked against the device's row where the service reads its versions.
      onRequest: app.requireDeviceToken,
      // Encoded by the service, once per content (bundle-encoding.ts), not per request.
      compress: false,
      schema: { tags, response: { 200: AgentBundle, 304: z.undefined(), ...errors } },
    },
    async (request, reply) => {
      const { headers } = request;
      const bundle = await agent.bundle(
        deviceTokenOf(request),
        headers['if-none-match'],
        headers['accept-encoding'],
      );
      reply.header('vary', 'accept-encoding');
      if (!bundle) return reply.status(304).send();
      if (bundle.encoding !== 'identity') reply.header('content-encoding', bundle.encoding);
      // An AgentBundle already serialised (and compressed) from parts rendered once per
      // content: Fastify sends a Buffer as it is.
      const body = bundle.body as unknown as AgentBundle;
      return reply.header('etag', bundle.etag).type('application/json; charset=utf-8').send(body);
    },
  );

  app.post(
    '/agent/applied',
    {
      // The token is checked against the device's row in the report's own write.
      onRequest: app.requireDeviceToken,
      schema: { tags, body: AgentApplied, response: { 200: MessageResponse, ...errors } },
    },
    async (request) => {
      await agent.applied(deviceTokenOf(request), request.body);
      return { msg: 'Recorded' };
    },
  );

  app.post(
    '/agent/alerts',
    {
      ...asDevice,
      bodyLimit: AGENT_BODY_LIMIT,
      schema: { tags, body: AgentAlertBatch, response: { 200: AgentAlertAck, ...errors } },
    },
    (request) => agent.alerts(deviceOf(request), request.body.seq, request.body.events),
  );

  app.post(
    '/agent/logs',
    {
      // The token is checked against the device's row in the batch's own write.
      onRequest: app.requireDeviceToken,
      bodyLimit: AGENT_BODY_LIMIT,
      schema: { tags, body: AgentLogBatch, response: { 200: AgentAck, ...errors } },
    },
    (request) => agent.logs(deviceTokenOf(request), request.body.seq, request.body.lines),
  );

  app.get('/agent/events', { ...asDevice, schema: { tags, hide: true } }, (request, reply) => {
    push.open(request, reply, deviceOf(request));
  });
};
