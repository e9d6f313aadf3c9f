import {
  FirewallHits,
  FirewallHitsQuery,
  FirewallRuleset,
  FirewallRulesetWrite,
  IdParams,
  ListQuery,
  listResponse,
  MessageResponse,
} from '@palisade/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/errors.js';
import { principalOf } from '../../plugins/auth.js';
import { firewallHits } from './firewall-hits.service.js';
import { createFirewallService } from './firewall.service.js';

const errors = errorResponses(401, 403, 404, 409, 413, 422);
/** A 10,000-rule ruleset is a few MiB of JSON. */
const RULESET_BODY_LIMIT = 16 * 1024 * 1024;

export const firewallRoutes: FastifyPluginAsyncZod = async (app) => {
  const firewall = createFirewallService(app.ctx.db, app.ctx.config.publicUrl);
  const signedIn = { onRequest: app.requireUser };
  const tags = ['firewall'];

  app.get(
    '/fwruleset/',
    {
      ...signedIn,
      schema: {
        tags,
        querystring: ListQuery,
        response: { 200: listResponse(FirewallRuleset), ...errors },
      },
    },
    (request) => firewall.list(principalOf(request), request.query),
  );
  app.post(
    '/fwruleset/',
    {
      ...signedIn,
      bodyLimit: RULESET_BODY_LIMIT,
      schema: { tags, body: FirewallRulesetWrite, response: { 201: FirewallRuleset, ...errors } },
    },
    async (request, reply) =>
      reply.status(201).send(await firewall.create(principalOf(request), request.body)),
  );
  app.get(
    '/fwruleset/:id',
    {
      ...signedIn,
      schema: { tags, params: IdParams, response: { 200: FirewallRuleset, ...errors } },
    },
    (request) => firewall.get(principalOf(request), request.params.id),
  );
  app.get(
    '/fwruleset/:id/hits',
    {
      ...signedIn,
      schema: {
        tags,
        params: IdParams,
        querystring: FirewallHitsQuery,
        response: { 200: FirewallHits, ...errors },
      },
    },
    (request) =>
      firewallHits(app.ctx.db, principalOf(request), request.params.id, request.query.days),
  );
  app.put(
    '/fwruleset/:id',
    {
      ...signedIn,
      bodyLimit: RULESET_BODY_LIMIT,
      schema: {
        tags,
        params: IdParams,
        body: FirewallRulesetWrite,
        response: { 200: FirewallRuleset, ...errors },
      },
    },
    (request) => firewall.update(principalOf(request), request.params.id, request.body),
  );
  app.delete(
    '/fwruleset/:id',
    {
      ...signedIn,
      schema: { tags, params: IdParams, response: { 200: MessageResponse, ...errors } },
    },
    async (request) => {
      await firewall.remove(principalOf(request), request.params.id);
      return { msg: 'Ruleset deleted' };
    },
  );
};
