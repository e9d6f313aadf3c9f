import type { AuditAction, AuditObjectType } from '@palisade/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_TABLE } from './route-table.js';
import {
  buildWorld,
  concretePath,
  kindOf,
  operations,
  type Operation,
  type World,
} from './route-world.js';

/**
 * Every route that changes something records it in the audit log (issue 18), generated from
 * /openapi.json: each POST, PUT, PATCH and DELETE is called once as a caller the route table
 * allows, and a record of the expected object type and action must have appeared. A new
 * writing route fails here until it records its change and is listed below (or is listed as
 * not a change, with the reason).
 */

interface Recorded {
  object_type: AuditObjectType;
  action: AuditAction;
}

/** What each writing route records. */
const RECORDS: Record<string, Recorded> = {
  // Signing in is recorded too (sign-ins and failed sign-ins are the log's first concern).
  'POST /api/v1/login/access-token': { object_type: 'session', action: 'sign_in' },
  // Self-registration opens an organization, whose log starts with it.
  'POST /api/v1/users/open': { object_type: 'organization', action: 'create' },
  'PUT /api/v1/users/me': { object_type: 'user', action: 'update' },
  'POST /api/v1/users/': { object_type: 'user', action: 'create' },
  'PUT /api/v1/users/{id}': { object_type: 'user', action: 'update' },
  'DELETE /api/v1/users/{id}': { object_type: 'user', action: 'delete' },
  'POST /api/v1/rules/': { object_type: 'rule', action: 'create' },
  'PUT /api/v1/rules/{id}': { object_type: 'rule', action: 'update' },
  'POST /api/v1/rules/import': { object_type: 'rule', action: 'import' },
  'POST /api/v1/groups/': { object_type: 'group', action: 'create' },
  'PUT /api/v1/groups/{id}': { object_type: 'group', action: 'update' },
  'DELETE /api/v1/groups/{id}': { object_type: 'group', action: 'delete' },
  'POST /api/v1/rulesources/': { object_type: 'rule_source', action: 'create' },
  'PUT /api/v1/rulesources/{id}': { object_type: 'rule_source', action: 'update' },
  'DELETE /api/v1/rulesources/{id}': { object_type: 'rule_source', action: 'delete' },
  'POST /api/v1/rulesources/{id}/update': { object_type: 'rule_source', action: 'update_now' },
  'POST /api/v1/policies/': { object_type: 'policy', action: 'create' },
  'PUT /api/v1/policies/{id}': { object_type: 'policy', action: 'update' },
  'DELETE /api/v1/policies/{id}': { object_type: 'policy', action: 'delete' },
  'POST /api/v1/policies/{id}/upload': { object_type: 'policy', action: 'update' },
  'POST /api/v1/deviceconfigurationprofiles/': { object_type: 'profile', action: 'create' },
  'PUT /api/v1/deviceconfigurationprofiles/{id}': { object_type: 'profile', action: 'update' },
  'DELETE /api/v1/deviceconfigurationprofiles/{id}': { object_type: 'profile', action: 'delete' },
  'POST /api/v1/devices/': { object_type: 'device', action: 'create' },
  'POST /api/v1/devices/upgrade': { object_type: 'device', action: 'upgrade' },
  'PUT /api/v1/devices/{id}': { object_type: 'device', action: 'update' },
  'DELETE /api/v1/devices/{id}': { object_type: 'device', action: 'delete' },
  'PUT /api/v1/devices/{id}/network': { object_type: 'device_network', action: 'update' },
  'POST /api/v1/devices/{id}/enrolment': { object_type: 'device', action: 'token_issued' },
  // An agent redeeming a token sets its device's password: a change, by the device.
  'POST /api/v1/agent/enrol': { object_type: 'enrolment', action: 'enrol' },
  'POST /api/v1/alerts/ack': { object_type: 'alert', action: 'acknowledge' },
  'POST /api/v1/alerts/bulk': { object_type: 'alert', action: 'acknowledge' },
  'POST /api/v1/alerts/{id}/tune': { object_type: 'policy', action: 'tune' },
  'PUT /api/v1/alerts/{id}/star': { object_type: 'alert', action: 'star' },
  'POST /api/v1/alerts/{id}/comments': { object_type: 'alert', action: 'comment' },
  'PUT /api/v1/alerts/comments/{id}': { object_type: 'alert_comment', action: 'update' },
  'DELETE /api/v1/alerts/comments/{id}': { object_type: 'alert_comment', action: 'delete' },
  'POST /api/v1/alertviews/': { object_type: 'alert_view', action: 'create' },
  'PUT /api/v1/alertviews/{id}': { object_type: 'alert_view', action: 'update' },
  'DELETE /api/v1/alertviews/{id}': { object_type: 'alert_view', action: 'delete' },
  'POST /api/v1/fwruleset/': { object_type: 'firewall_ruleset', action: 'create' },
  'PUT /api/v1/fwruleset/{id}': { object_type: 'firewall_ruleset', action: 'update' },
  'DELETE /api/v1/fwruleset/{id}': { object_type: 'firewall_ruleset', action: 'delete' },
  'PUT /api/v1/organization/settings': { object_type: 'organization', action: 'update' },
  // Rollbacks are recorded even when the object already had that version's definition.
  'POST /api/v1/policies/{id}/rollback': { object_type: 'policy', action: 'rollback' },
  'POST /api/v1/fwruleset/{id}/rollback': { object_type: 'firewall_ruleset', action: 'rollback' },
  'POST /api/v1/deviceconfigurationprofiles/{id}/rollback': {
    object_type: 'profile',
    action: 'rollback',
  },
  'POST /api/v1/devices/{id}/network/rollback': {
    object_type: 'device_network',
    action: 'rollback',
  },
  // A GET that writes: the device is asked to re-pull and re-apply everything.
  'GET /api/v1/deviceupdate/{id}': { object_type: 'device', action: 'flush' },
};

/** Writing routes that record nothing, and why. */
const NOT_CHANGES: Record<string, string> = {
  'POST /api/v1/rulesmulti': 'a read by POST (a long list of ids), changes nothing',
  'POST /api/v1/policies/{id}/backtest':
    'a read by POST (the tuning entries considered), changes nothing',
  'POST /api/v1/password-recovery/{username}':
    'mails a reset link and changes nothing; the reset itself is recorded',
  'POST /api/v1/reset-password/':
    'the table calls it with a made-up token (400, nothing changes); a real reset is recorded as password_reset (audit.test.ts)',
  'POST /api/v1/agent/login': "a device's sign-in: every reconnect of every agent, telemetry",
  'POST /api/v1/agent/heartbeat': 'telemetry',
  'POST /api/v1/agent/applied': 'telemetry: the agent reports what it applied',
  'POST /api/v1/agent/alerts': 'telemetry: alert ingest',
  'POST /api/v1/agent/logs': 'telemetry: agent log lines',
  // A preview runs the save and rolls it back, its audit record with it (preview.test.ts).
  ...Object.fromEntries(
    [
      'PUT /api/v1/fwruleset/{id}/preview',
      'PUT /api/v1/devices/{id}/preview',
      'PUT /api/v1/devices/{id}/network/preview',
      'PUT /api/v1/policies/{id}/preview',
      'PUT /api/v1/deviceconfigurationprofiles/{id}/preview',
      'POST /api/v1/rules/preview',
      'PUT /api/v1/rules/{id}/preview',
      'PUT /api/v1/groups/{id}/preview',
      'POST /api/v1/alerts/{id}/tune/preview',
      'POST /api/v1/policies/{id}/rollback/preview',
      'POST /api/v1/fwruleset/{id}/rollback/preview',
      'POST /api/v1/deviceconfigurationprofiles/{id}/rollback/preview',
      'POST /api/v1/devices/{id}/network/rollback/preview',
      'POST /api/v1/rules/import/preview',
      'POST /api/v1/policies/{id}/upload/preview',
    ].map((key) => [key, 'a preview of a save: nothing is committed']),
  ),
  'POST /api/v1/deployments/':
    "the table's organization applies saves at once, so there is nothing to deploy (409); a deploy is recorded as deployment/deploy, a gate's rollback as deployment/rollback (deployments.test.ts)",
};

const WRITING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

describe('every change made through the API is audited (generated from /openapi.json)', () => {
  let world: World;
  let listed: Operation[];

  beforeAll(async () => {
    world = await buildWorld();
    listed = await operations(world.app);
  }, 120_000);
  afterAll(() => world.server.close());

  const lastId = async () =>
    (
      await world.server.db.query<{ id: number }>(
        'SELECT coalesce(max(id), 0)::int AS id FROM audit_log',
      )
    )[0]?.id ?? 0;

  it('lists every writing route as recorded or as not a change', () => {
    const writing = listed.filter((op) => WRITING.has(op.method)).map((op) => op.key);
    const unlisted = writing.filter((key) => !(key in RECORDS) && !(key in NOT_CHANGES));
    expect(unlisted, 'writing routes that say nothing of their audit record').toEqual([]);
  });

  it('records each change with its object type and action', async () => {
    const failures: string[] = [];
    for (const op of listed) {
      const recorded = RECORDS[op.key];
      const entry = ROUTE_TABLE[op.key];
      if (!recorded || !entry) continue;
      const kind = kindOf(op);
      const id =
        kind === undefined
          ? (entry.pathValue ?? '')
          : op.method === 'DELETE'
            ? await world.fresh(kind)
            : world.ids[kind];
      const body = entry.body ? await entry.body(world) : undefined;
      const caller =
        entry.access === 'public' ? 'none' : entry.access === 'agent' ? 'agent' : 'Administrator';
      const since = await lastId();
      const response = await world.app.inject({
        method: op.method as 'POST',
        url: concretePath(op, id, world.updateId),
        headers: { ...world.headers[caller], ...body?.headers },
        ...(body ? { payload: body.payload } : {}),
      });
      if (response.statusCode >= 300) {
        failures.push(`${op.key}: ${response.statusCode} ${response.body.slice(0, 200)}`);
        continue;
      }
      const rows = await world.server.db.query<Recorded>(
        'SELECT object_type, action FROM audit_log WHERE id > $1',
        [since],
      );
      if (!rows.some((r) => r.object_type === recorded.object_type && r.action === recorded.action))
        failures.push(
          `${op.key}: expected ${recorded.object_type}/${recorded.action}, got ${JSON.stringify(rows)}`,
        );
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it('keeps no record of a change that failed', async () => {
    const headers = world.headers.Administrator;
    const since = await lastId();
    const taken = await world.app.inject({
      method: 'POST',
      url: '/api/v1/groups/',
      headers,
      payload: { name: 'dup' },
    });
    expect(taken.statusCode).toBe(201);
    const afterCreate = await lastId();
    expect(afterCreate).toBeGreaterThan(since);
    for (const request of [
      { method: 'POST', url: '/api/v1/groups/', payload: { name: 'DUP' } },
      {
        method: 'PUT',
        url: `/api/v1/policies/${world.ids.policy}`,
        payload: { name: 'p', group_ids: [999_999] },
      },
      { method: 'DELETE', url: `/api/v1/fwruleset/${world.ids.ruleset}` },
    ] as const) {
      const refused = await world.app.inject({ ...request, headers });
      expect(refused.statusCode, `${request.method} ${request.url}`).toBeGreaterThanOrEqual(400);
    }
    expect(await lastId()).toBe(afterCreate);
  });
});
