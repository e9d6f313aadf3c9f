import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { migrate } from './db/migrate.js';
import { createMailer, type Mailer } from './lib/mailer.js';
import { SecretBox } from './lib/secret-box.js';
import { resolveSecretKey } from './lib/secret-key.js';
import { TokenService } from './lib/tokens.js';
import { agentRoutes } from './modules/agent/agent.routes.js';
import { agentReleaseRoutes } from './modules/agent-release/agent-release.routes.js';
import { createAgentReleaseService } from './modules/agent-release/agent-release.service.js';
import { alertViewsRoutes } from './modules/alert-views/alert-views.routes.js';
import { alertSummaryRoutes } from './modules/alerts/alert-summary.routes.js';
import { ruleAnalyticsRoutes } from './modules/alerts/rule-analytics.routes.js';
import { alertsRoutes } from './modules/alerts/alerts.routes.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { deployGatePlugin } from './modules/deployments/deploy-gate-job.js';
import { deploymentsRoutes } from './modules/deployments/deployments.routes.js';
import { devicesRoutes } from './modules/devices/devices.routes.js';
import { enrolmentRoutes } from './modules/enrolment/enrolment.routes.js';
import { expiryJob } from './modules/expiry/expiry.job.js';
import { expiryRoutes } from './modules/expiry/expiry.routes.js';
import { profilesRoutes } from './modules/profiles/profiles.routes.js';
import { firewallRoutes } from './modules/firewall/firewall.routes.js';
import { groupsRoutes } from './modules/groups/groups.routes.js';
import { policiesRoutes } from './modules/policies/policies.routes.js';
import { previewRoutes } from './modules/preview/preview.routes.js';
import { rerenderAfterMigrations } from './modules/policies/policies.service.js';
import { UploadStage } from './modules/rules/rule-archive.js';
import { ruleSourcesRoutes } from './modules/rule-sources/rule-sources.routes.js';
import { ruleSourceUpdatesPlugin } from './modules/rule-sources/source-runner.js';
import { rulesRoutes } from './modules/rules/rules.routes.js';
import { systemRoutes } from './modules/system/system.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { versionsRoutes } from './modules/versions/versions.routes.js';
import { authPlugin } from './plugins/auth.js';
import { compressionPlugin } from './plugins/compression.js';
import { consoleEventsPlugin } from './plugins/console-events.js';
import { deviceAuthPlugin } from './plugins/device-auth.js';
import { deviceEventsPlugin } from './plugins/device-events.js';
import { embeddedMaintenancePlugin } from './plugins/embedded-maintenance.js';
import { securityHeadersPlugin } from './plugins/security-headers.js';
import { errorsPlugin, frameworkErrors } from './plugins/errors.js';
import { openapiPlugin } from './plugins/openapi.js';
import { retentionPlugin } from './plugins/retention.js';
import { staticPlugin } from './plugins/static.js';
import './plugins/context.js';

export const API_PREFIX = '/api/v1';
/** Upload stages older than this at start were left by a crash (an import takes minutes). */
const STALE_UPLOAD_MS = 24 * 60 * 60 * 1000;
/** Largest JSON or form body; rule uploads get their own, larger limit on their routes. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

export interface BuildOptions {
  config: Config;
  db: Database;
  /** Test seam: capture mail instead of sending it. */
  mailer?: Mailer;
  webDist?: string;
  /** Pino logger options; false for silence (tests). */
  logger?: boolean | Record<string, unknown>;
}

/**
 * Fastify's own hop count trusts no hop at all (it cannot vouch for the peer), so a count is
 * given as a function: the socket's peer and the hops after it, up to `hops` in all, are proxies.
 */
function proxyTrust(trust: Config['trustProxy']) {
  if (typeof trust !== 'number') return trust;
  return (_address: string, hop: number) => hop < trust;
}

/** Builds the whole server on an open database (migrated here). Tests call it with app.inject. */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: proxyTrust(config.trustProxy),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await migrate(db, rerenderAfterMigrations);
  const secretKey = await resolveSecretKey(config.secretKey, config.dataDir);
  const staleStages = await UploadStage.removeStale(config.dataDir, STALE_UPLOAD_MS);
  if (staleStages.length > 0)
    app.log.warn({ removed: staleStages }, 'removed upload stages an earlier run left behind');
  // Devices compare their agents with the build it holds and are upgraded to it.
  const agentRelease = createAgentReleaseService(config.agentReleaseDir, app.log);
  app.decorate('ctx', {
    config,
    db,
    tokens: new TokenService(secretKey, config.accessTokenExpireMinutes),
    secrets: new SecretBox(secretKey),
    agentVersion: async () => (await agentRelease.current())?.version ?? null,
    mailer:
      options.mailer ??
      createMailer({
        smtpUrl: config.smtpUrl,
        from: config.smtpFrom ?? `Palisade <no-reply@${new URL(config.publicUrl).hostname}>`,
        log: app.log,
      }),
  });

  // While shutting down, answers in flight close their connection: otherwise a keep-alive
  // client would hold the shutdown open until its idle timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  await app.register(securityHeadersPlugin, {
    contentSecurityPolicy: {
      directives: {
        // The console may run on plain http inside a management network.
        upgradeInsecureRequests: null,
        // MUI styles are injected at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
      },
    },
  });
  // Before any route: the compression hook is attached to each route as it is added.
  await app.register(compressionPlugin);
  await app.register(formbody, { bodyLimit: BODY_LIMIT_BYTES });
  await app.register(errorsPlugin);
  await app.register(openapiPlugin);
  await app.register(authPlugin);
  await app.register(deviceAuthPlugin);
  await app.register(deviceEventsPlugin);
  await app.register(consoleEventsPlugin);
  await app.register(retentionPlugin);
  await app.register(embeddedMaintenancePlugin);
  await app.register(deployGatePlugin);
  await app.register(expiryJob);
  await app.register(ruleSourceUpdatesPlugin);

  await app.register(
    async (api) => {
      await api.register(systemRoutes);
      await api.register(authRoutes);
      await api.register(usersRoutes);
      await api.register(rulesRoutes);
      await api.register(groupsRoutes);
      await api.register(ruleSourcesRoutes);
      await api.register(policiesRoutes);
      await api.register(profilesRoutes);
      await api.register(devicesRoutes);
      await api.register(agentRoutes);
      await api.register(agentReleaseRoutes);
      await api.register(enrolmentRoutes);
      await api.register(alertsRoutes);
      await api.register(alertSummaryRoutes);
      await api.register(ruleAnalyticsRoutes);
      await api.register(alertViewsRoutes);
      await api.register(firewallRoutes);
      await api.register(expiryRoutes);
      await api.register(auditRoutes);
      await api.register(versionsRoutes);
      await api.register(previewRoutes);
      await api.register(deploymentsRoutes);
    },
    { prefix: API_PREFIX },
  );

  await app.register(staticPlugin, {
    webDist: options.webDist ?? DEFAULT_WEB_DIST,
    overrides: path.join(config.dataDir, 'public'),
    serveSourceMaps: config.serveSourceMaps,
  });
  return app;
}
