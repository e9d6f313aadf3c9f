import {
  AlertIdParams,
  AlertTune,
  ChangePreview,
  DeviceNetworkWrite,
  DeviceProfileUpdate,
  DeviceUpdate,
  FirewallRulesetWrite,
  IdParams,
  PolicyUpdate,
  RollbackRequest,
  RuleGroupUpdate,
  RuleUpdate,
  RuleWrite,
} from '@palisade/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { errorResponses } from '../../plugins/errors.js';
import { principalOf, type Principal } from '../../plugins/auth.js';
import type { Database } from '../../db/client.js';
import type { z } from 'zod';
import { createAlertsService } from '../alerts/alerts.service.js';
import { createDevicesService } from '../devices/devices.service.js';
import { createFirewallService } from '../firewall/firewall.service.js';
import { createGroupsService } from '../groups/groups.service.js';
import { createPoliciesService } from '../policies/policies.service.js';
import { createProfilesService } from '../profiles/profiles.service.js';
import { createRulesService } from '../rules/rules.service.js';
import { previewChange, type PreviewedWrite } from './preview.service.js';

/** A kind's rollback, made on the database it is given. */
type RollbackCall = (
  db: Database,
  principal: Principal,
  id: number,
  body: z.output<typeof RollbackRequest>,
) => Promise<unknown>;

const errors = errorResponses(401, 403, 404, 409, 413, 422);
/** As the ruleset save's own limit: a 10,000-rule ruleset is a few MiB of JSON. */
const RULESET_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * `…/preview`: each write that reaches devices answers, at its own path + `/preview` with the
 * same method and body, what the save would send (a ChangePreview) without saving anything.
 * The save's own service call runs, on a database that never commits (preview.service.ts), so
 * the preview checks what the save checks, in the same order: role, organization, body.
 */
export const previewRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, agentVersion } = app.ctx;
  const signedIn = { onRequest: app.requireUser };
  const tags = ['preview'];
  const preview = (request: FastifyRequest, write: PreviewedWrite) =>
    previewChange(db, principalOf(request), write);
  const response = { 200: ChangePreview, ...errors };

  app.put(
    '/fwruleset/:id/preview',
    {
      ...signedIn,
      bodyLimit: RULESET_BODY_LIMIT,
      schema: { tags, params: IdParams, body: FirewallRulesetWrite, response },
    },
    (request) =>
      preview(request, (dry) =>
        createFirewallService(dry, config.publicUrl).update(
          principalOf(request),
          request.params.id,
          request.body,
        ),
      ),
  );
  app.put(
    '/devices/:id/preview',
    { ...signedIn, schema: { tags, params: IdParams, body: DeviceUpdate, response } },
    (request) =>
      preview(request, (dry) =>
        createDevicesService(dry, agentVersion, config.publicUrl).update(
          principalOf(request),
          request.params.id,
          request.body,
        ),
      ),
  );
  app.put(
    '/devices/:id/network/preview',
    { ...signedIn, schema: { tags, params: IdParams, body: DeviceNetworkWrite, response } },
    (request) =>
      preview(request, (dry) =>
        createDevicesService(dry, agentVersion, config.publicUrl).setNetwork(
          principalOf(request),
          request.params.id,
          request.body,
        ),
      ),
  );
  app.put(
    '/policies/:id/preview',
    { ...signedIn, schema: { tags, params: IdParams, body: PolicyUpdate, response } },
    (request) =>
      preview(request, (dry) =>
        createPoliciesService(dry).update(principalOf(request), request.params.id, request.body),
      ),
  );
  app.put(
    '/deviceconfigurationprofiles/:id/preview',
    { ...signedIn, schema: { tags, params: IdParams, body: DeviceProfileUpdate, response } },
    (request) =>
      preview(request, (dry) =>
        createProfilesService(dry, config.publicUrl).update(
          principalOf(request),
          request.params.id,
          request.body,
        ),
      ),
  );
  app.post(
    '/rules/preview',
    { ...signedIn, schema: { tags, body: RuleWrite, response } },
    (request) =>
      preview(request, (dry) => createRulesService(dry).create(principalOf(request), request.body)),
  );
  app.put(
    '/rules/:id/preview',
    { ...signedIn, schema: { tags, params: IdParams, body: RuleUpdate, response } },
    (request) =>
      preview(request, (dry) =>
        createRulesService(dry).update(principalOf(request), request.params.id, request.body),
      ),
  );
  app.put(
    '/groups/:id/preview',
    { ...signedIn, schema: { tags, params: IdParams, body: RuleGroupUpdate, response } },
    (request) =>
      preview(request, (dry) =>
        createGroupsService(dry).update(principalOf(request), request.params.id, request.body),
      ),
  );
  // Tuning from an alert edits the policy of the alert's device.
  app.post(
    '/alerts/:id/tune/preview',
    { ...signedIn, schema: { tags, params: AlertIdParams, body: AlertTune, response } },
    (request) =>
      preview(request, (dry) =>
        createAlertsService(dry).tune(principalOf(request), request.params.id, request.body.action),
      ),
  );

  // A rollback makes a new version equal to an earlier one: it reaches devices like a save.
  const rollbacks = [
    [
      '/policies/:id/rollback/preview',
      (dry, principal, id, body) =>
        createPoliciesService(dry).rollback(principal, id, body.version),
    ],
    [
      '/fwruleset/:id/rollback/preview',
      (dry, principal, id, body) =>
        createFirewallService(dry, config.publicUrl).rollback(
          principal,
          id,
          body.version,
          body.override_lockout,
        ),
    ],
    [
      '/deviceconfigurationprofiles/:id/rollback/preview',
      (dry, principal, id, body) =>
        createProfilesService(dry, config.publicUrl).rollback(
          principal,
          id,
          body.version,
          body.override_lockout,
        ),
    ],
    [
      '/devices/:id/network/rollback/preview',
      (dry, principal, id, body) =>
        createDevicesService(dry, agentVersion, config.publicUrl).rollbackNetwork(
          principal,
          id,
          body.version,
          body.override_lockout,
        ),
    ],
  ] as const satisfies readonly (readonly [string, RollbackCall])[];
  for (const [path, rollback] of rollbacks) {
    app.post(
      path,
      { ...signedIn, schema: { tags, params: IdParams, body: RollbackRequest, response } },
      (request) =>
        preview(request, (dry) =>
          rollback(dry, principalOf(request), request.params.id, request.body),
        ),
    );
  }
};
