import {
  IdParams,
  RollbackRequest,
  RollbackResponse,
  VersionDiff,
  VersionDiffParams,
  VersionList,
  VersionsQuery,
} from '@palisade/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { principalOf } from '../../plugins/auth.js';
import { errorResponses } from '../../plugins/errors.js';
import { createDevicesService } from '../devices/devices.service.js';
import { createFirewallService } from '../firewall/firewall.service.js';
import { createPoliciesService } from '../policies/policies.service.js';
import { createProfilesService } from '../profiles/profiles.service.js';
import { createVersionsService, type VersionedKinds } from './versions.api.js';

const errors = errorResponses(401, 403, 404, 409, 422);
/** A rollback names a version; nothing else. */
const ROLLBACK_BODY_LIMIT = 1024;

/**
 * History, compare and rollback of policies, firewall rulesets, profiles and device networks:
 * `{base}/versions`, `{base}/versions/{a}/diff/{b}`, `{base}/rollback` under each kind's path.
 */
export const versionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;
  const policies = createPoliciesService(db);
  const firewall = createFirewallService(db, config.publicUrl);
  const profiles = createProfilesService(db, config.publicUrl);
  const devices = createDevicesService(
    db,
    app.ctx.agentVersion,
    config.publicUrl,
    config.healthDropPercent,
  );
  const kinds: VersionedKinds = {
    policy: {
      context: (principal, id) => policies.versionContext(principal, id),
      rollback: (principal, id, body) => policies.rollback(principal, id, body.version),
    },
    firewall_ruleset: {
      context: (principal, id) => firewall.versionContext(principal, id),
      rollback: (principal, id, body) =>
        firewall.rollback(principal, id, body.version, body.override_lockout),
    },
    profile: {
      context: (principal, id) => profiles.versionContext(principal, id),
      rollback: (principal, id, body) =>
        profiles.rollback(principal, id, body.version, body.override_lockout),
    },
    device_network: {
      context: (principal, id) => devices.versionContext(principal, id),
      rollback: (principal, id, body) =>
        devices.rollbackNetwork(principal, id, body.version, body.override_lockout),
    },
  };
  const versions = createVersionsService(db, kinds);
  const signedIn = { onRequest: app.requireUser };
  const paths = [
    ['policy', '/policies/:id', 'policies'],
    ['firewall_ruleset', '/fwruleset/:id', 'firewall'],
    ['profile', '/deviceconfigurationprofiles/:id', 'profiles'],
    ['device_network', '/devices/:id/network', 'devices'],
  ] as const;

  for (const [kind, base, tag] of paths) {
    const tags = [tag];
    app.get(
      `${base}/versions`,
      {
        ...signedIn,
        schema: {
          tags,
          params: IdParams,
          querystring: VersionsQuery,
          response: { 200: VersionList, ...errors },
        },
      },
      (request) => versions.list(principalOf(request), kind, request.params.id, request.query),
    );
    app.get(
      `${base}/versions/:a/diff/:b`,
      {
        ...signedIn,
        schema: { tags, params: VersionDiffParams, response: { 200: VersionDiff, ...errors } },
      },
      (request) =>
        versions.diff(
          principalOf(request),
          kind,
          request.params.id,
          request.params.a,
          request.params.b,
        ),
    );
    app.post(
      `${base}/rollback`,
      {
        ...signedIn,
        bodyLimit: ROLLBACK_BODY_LIMIT,
        schema: {
          tags,
          params: IdParams,
          body: RollbackRequest,
          response: { 200: RollbackResponse, ...errors },
        },
      },
      (request) => versions.rollback(principalOf(request), kind, request.params.id, request.body),
    );
  }
};
