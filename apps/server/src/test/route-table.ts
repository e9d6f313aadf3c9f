import type { Role } from '@palisade/contract';
import { multipart } from './corpus.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './harness.js';
import { RULE_TEXT, SOURCE_BODY, type World } from './route-world.js';

/**
 * Who may call each operation of the API, keyed by `METHOD path` as /openapi.json lists it.
 * route-matrix.test.ts checks every operation against every kind of caller with it, and fails
 * on an operation this table does not list: a new route must say who may call it.
 *
 * - `public`: anyone, with or without a token.
 * - `agent`: agent (device) tokens only; console tokens are refused with 401.
 * - a role: console tokens of that role or a higher one; lower roles get 403, agent tokens 401.
 *   An `{id}` of the first organization answers the second organization's Administrator 404.
 */
export type Access = 'public' | 'agent' | Role;

export interface RequestBody {
  payload: object | string | Buffer;
  headers?: Record<string, string>;
}

export interface Expectation {
  access: Access;
  /** A valid body, so that an allowed caller gets through validation to the service. */
  body?: (world: World) => RequestBody | Promise<RequestBody>;
  /** A multipart upload (the fuzz test truncates and mangles it). */
  multipart?: true;
  /** What an allowed caller gets besides 2xx (e.g. a reset with a made-up token is a 400). */
  alsoAllowed?: number[];
  /** A path parameter that is not an object id. */
  pathValue?: string;
  /** A server-sent-events stream: only refusals are checked (an allowed call never ends). */
  stream?: true;
  /**
   * An agent batch numbered by `seq`: a batch at or below the stored number is not stored
   * again, so each fuzzed request gets the next number.
   */
  sequenced?: true;
}

const json = (payload: object): RequestBody => ({ payload });
const upload = async (name: string, text: string): Promise<RequestBody> => {
  const body = await multipart([{ name, bytes: text }]);
  return { payload: body.payload, headers: body.headers };
};

/** A new device's enrolment token, issued by the first organization's Administrator. */
async function enrolmentToken(world: World): Promise<string> {
  const device = await world.fresh('device');
  const response = await world.app.inject({
    method: 'POST',
    url: `/api/v1/devices/${device}/enrolment`,
    headers: world.headers.Administrator,
    payload: {},
  });
  return response.json<{ token: string }>().token;
}

export const ROUTE_TABLE: Record<string, Expectation> = {
  // system
  'GET /api/v1/health': { access: 'public' },
  'GET /api/v1/ready': { access: 'public' },
  'GET /api/v1/config': { access: 'public' },
  'GET /api/v1/components': { access: 'Viewer' },
  // agent release (route-world.ts writes a small one into the test server's AGENT_RELEASE_DIR)
  'GET /api/v1/agent/download/': { access: 'public' },
  'GET /api/v1/agent/download/{name}': { access: 'public', pathValue: 'install.sh' },
  'GET /api/v1/agent/install.sh': { access: 'public' },
  // auth
  'POST /api/v1/login/access-token': {
    access: 'public',
    body: () => ({
      payload: new URLSearchParams({ username: ADMIN_EMAIL, password: ADMIN_PASSWORD }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
  },
  'POST /api/v1/password-recovery/{username}': {
    access: 'public',
    pathValue: ADMIN_EMAIL,
    // Three links per user in 15 minutes.
    alsoAllowed: [429],
  },
  'POST /api/v1/reset-password/': {
    access: 'public',
    body: () => json({ token: 'made-up-token', new_password: 'Strong#2026x' }),
    alsoAllowed: [400],
  },
  'POST /api/v1/users/open': {
    access: 'public',
    body: (w) =>
      json({
        email: `open-${w.unique()}@example.com`,
        password: 'Strong#2026x',
        organization: `Open ${w.unique()}`,
      }),
    alsoAllowed: [429],
  },
  // users
  'GET /api/v1/users/me': { access: 'Viewer' },
  'PUT /api/v1/users/me': { access: 'Viewer', body: () => json({ first_name: 'Me' }) },
  'GET /api/v1/users/': { access: 'Administrator' },
  'POST /api/v1/users/': {
    access: 'Administrator',
    body: (w) => json({ email: `new-${w.unique()}@example.com`, password: 'Strong#2026x' }),
  },
  'GET /api/v1/users/{id}': { access: 'Administrator' },
  'PUT /api/v1/users/{id}': { access: 'Administrator', body: () => json({ first_name: 'Target' }) },
  'DELETE /api/v1/users/{id}': { access: 'Administrator' },
  // rules and groups
  'GET /api/v1/rules/': { access: 'Viewer' },
  'POST /api/v1/rules/': {
    access: 'Operator',
    body: (w) => json({ text: RULE_TEXT(9_100_000 + w.unique()) }),
  },
  'GET /api/v1/rules/{id}': { access: 'Viewer' },
  'PUT /api/v1/rules/{id}': { access: 'Operator', body: () => json({ enabled: true }) },
  'POST /api/v1/rulesmulti': { access: 'Viewer', body: (w) => json({ ids: [w.ids.rule] }) },
  'POST /api/v1/rules/import': {
    access: 'Operator',
    multipart: true,
    body: (w) => upload('matrix.rules', `${RULE_TEXT(9_200_000 + w.unique())}\n`),
  },
  'GET /api/v1/groups/': { access: 'Viewer' },
  'POST /api/v1/groups/': { access: 'Operator', body: (w) => json({ name: `g ${w.unique()}` }) },
  'PUT /api/v1/groups/{id}': { access: 'Operator', body: () => json({ description: 'changed' }) },
  'DELETE /api/v1/groups/{id}': { access: 'Operator' },
  // rule sources
  'GET /api/v1/rulesources/': { access: 'Viewer' },
  'POST /api/v1/rulesources/': { access: 'Operator', body: (w) => json(SOURCE_BODY(w.unique())) },
  'GET /api/v1/rulesources/catalogue': { access: 'Viewer' },
  // Without the sid it asks for, a 422 naming it.
  'GET /api/v1/rulesources/rule-changes': { access: 'Viewer', alsoAllowed: [422] },
  'GET /api/v1/rulesources/{id}': { access: 'Viewer' },
  'PUT /api/v1/rulesources/{id}': { access: 'Operator', body: () => json({ enabled: true }) },
  'DELETE /api/v1/rulesources/{id}': { access: 'Operator' },
  'POST /api/v1/rulesources/{id}/update': { access: 'Operator' },
  'GET /api/v1/rulesources/{id}/updates': { access: 'Viewer' },
  'GET /api/v1/rulesources/{id}/updates/{updateId}': { access: 'Viewer' },
  'GET /api/v1/rulesources/{id}/updates/{updateId}/changes': { access: 'Viewer' },
  // policies
  'GET /api/v1/policies/': { access: 'Viewer' },
  'POST /api/v1/policies/': { access: 'Operator', body: (w) => json({ name: `p ${w.unique()}` }) },
  'POST /api/v1/policies/{id}/backtest': {
    access: 'Viewer',
    body: () => json({ days: 7, thresholds: [{ kind: 'suppress', sid: 9_000_001 }] }),
  },
  'GET /api/v1/policies/{id}': { access: 'Viewer' },
  'PUT /api/v1/policies/{id}': {
    access: 'Operator',
    body: () => json({ description: 'changed' }),
  },
  'DELETE /api/v1/policies/{id}': { access: 'Operator' },
  'GET /api/v1/policies/{id}/render': { access: 'Viewer' },
  'GET /api/v1/policies/{id}/rules': { access: 'Viewer' },
  'GET /api/v1/policies/{id}/threshold.config': { access: 'Viewer' },
  'GET /api/v1/policies/{id}/export': { access: 'Viewer' },
  'GET /api/v1/policies/{id}/versions': { access: 'Viewer' },
  'GET /api/v1/policies/{id}/versions/{a}/diff/{b}': { access: 'Viewer' },
  'POST /api/v1/policies/{id}/rollback': { access: 'Operator', body: () => json({ version: 1 }) },
  'POST /api/v1/policies/{id}/upload': {
    access: 'Operator',
    multipart: true,
    body: () => upload('disable.conf', '1:9000002\n'),
  },
  // device profiles, devices and their reports
  'GET /api/v1/deviceconfigurationprofiles/': { access: 'Viewer' },
  'POST /api/v1/deviceconfigurationprofiles/': {
    access: 'Operator',
    body: (w) => json({ name: `profile ${w.unique()}` }),
  },
  'PUT /api/v1/deviceconfigurationprofiles/{id}': {
    access: 'Operator',
    body: () => json({ description: 'changed' }),
  },
  'DELETE /api/v1/deviceconfigurationprofiles/{id}': { access: 'Operator' },
  'GET /api/v1/deviceconfigurationprofiles/{id}/versions': { access: 'Viewer' },
  'GET /api/v1/deviceconfigurationprofiles/{id}/versions/{a}/diff/{b}': { access: 'Viewer' },
  'POST /api/v1/deviceconfigurationprofiles/{id}/rollback': {
    access: 'Operator',
    body: () => json({ version: 1 }),
  },
  'GET /api/v1/devices/': { access: 'Viewer' },
  'POST /api/v1/devices/': {
    access: 'Operator',
    body: (w) => json({ name: `d ${w.unique()}`, password: 'device-secret-5678' }),
  },
  'POST /api/v1/devices/upgrade': {
    access: 'Administrator',
    body: (w) => json({ ids: [w.ids.device] }),
  },
  'GET /api/v1/devices/summary': { access: 'Viewer' },
  'GET /api/v1/devices/{id}': { access: 'Viewer' },
  'PUT /api/v1/devices/{id}': { access: 'Operator', body: () => json({ city: 'Oslo' }) },
  'DELETE /api/v1/devices/{id}': { access: 'Operator' },
  'GET /api/v1/deviceupdate/{id}': { access: 'Operator' },
  'GET /api/v1/devices/{id}/network': { access: 'Viewer' },
  'PUT /api/v1/devices/{id}/network': { access: 'Operator', body: () => json({ l3_mode: false }) },
  'GET /api/v1/devices/{id}/network/versions': { access: 'Viewer' },
  'GET /api/v1/devices/{id}/network/versions/{a}/diff/{b}': { access: 'Viewer' },
  'POST /api/v1/devices/{id}/network/rollback': {
    access: 'Operator',
    body: () => json({ version: 1 }),
  },
  'GET /api/v1/devices/{id}/firewall': { access: 'Viewer' },
  'POST /api/v1/devices/{id}/enrolment': { access: 'Operator', body: () => json({ ttl_hours: 1 }) },
  'GET /api/v1/devices/{id}/enrolment': { access: 'Viewer' },
  'GET /api/v1/devicemonitor/{id}': { access: 'Viewer' },
  'GET /api/v1/devicelog/{id}': { access: 'Viewer' },
  'GET /api/v1/devicelogsnort/{id}': { access: 'Viewer' },
  // the agent protocol
  'POST /api/v1/agent/login': {
    access: 'public',
    body: (w) => json({ device_id: w.ids.device, password: 'device-secret-1234' }),
  },
  'POST /api/v1/agent/enrol': {
    access: 'public',
    // A fresh device's token each time: enrolling the world's device would revoke its agent.
    body: async (w) =>
      json({ token: await enrolmentToken(w), agent_version: '0.2.0', protocol: 1 }),
  },
  'POST /api/v1/agent/heartbeat': {
    access: 'agent',
    body: () =>
      json({
        state: 'running',
        local: { config_version: null, policy_version: null },
        agent_version: '1.0.0',
      }),
  },
  'GET /api/v1/agent/bundle': { access: 'agent' },
  'POST /api/v1/agent/applied': {
    access: 'agent',
    body: () => json({ config_version: 1, policy_version: 1, ok: true }),
  },
  'POST /api/v1/agent/alerts': {
    access: 'agent',
    sequenced: true,
    body: () =>
      json({
        seq: 2,
        events: [
          {
            event_type: 'alert',
            timestamp: '2026-11-14T10:00:00.000000+0000',
            flow_id: 1_234_567_890_123,
            src_ip: '203.0.113.9',
            src_port: 40_001,
            dest_ip: '10.0.0.2',
            dest_port: 80,
            proto: 'TCP',
            app_proto: 'http',
            alert: {
              action: 'allowed',
              gid: 1,
              signature_id: 9_000_001,
              rev: 1,
              signature: 'matrix alert',
              category: 'Test',
              severity: 2,
            },
          },
        ],
      }),
  },
  'POST /api/v1/agent/logs': {
    access: 'agent',
    sequenced: true,
    body: () =>
      json({ seq: 1, lines: [{ time: new Date().toISOString(), level: 'info', msg: 'hello' }] }),
  },
  'GET /api/v1/agent/events': { access: 'agent', stream: true },
  // alerts
  'GET /api/v1/alerts/': { access: 'Viewer' },
  'GET /api/v1/alerts/groups': { access: 'Viewer' },
  'GET /api/v1/alerts/groups/by': { access: 'Viewer' },
  'GET /api/v1/alerts/histogram': { access: 'Viewer' },
  'GET /api/v1/alerts/export': { access: 'Viewer' },
  'GET /api/v1/alerts/summary': { access: 'Viewer' },
  'GET /api/v1/ruleanalytics/': { access: 'Viewer' },
  'GET /api/v1/ruleanalytics/silent/{id}': { access: 'Viewer' },
  'GET /api/v1/ruleanalytics/{gid}/{sid}': { access: 'Viewer' },
  'GET /api/v1/alerts/{id}': { access: 'Viewer' },
  'GET /api/v1/alerts/{id}/related': { access: 'Viewer' },
  'POST /api/v1/alerts/ack': { access: 'Operator', body: (w) => json({ ids: [w.ids.alert] }) },
  'POST /api/v1/alerts/bulk': {
    access: 'Operator',
    body: () => json({ filter: { acknowledged: 'false' }, action: 'acknowledge' }),
  },
  'PUT /api/v1/alerts/{id}/star': { access: 'Operator', body: () => json({ starred: true }) },
  'POST /api/v1/alerts/{id}/comments': {
    access: 'Operator',
    body: () => json({ body: 'seen by the route table' }),
  },
  // The world's comment is the Operator's own: its author and an Administrator may change it
  // (alert-comments.test.ts checks another Operator's refusal).
  'PUT /api/v1/alerts/comments/{id}': {
    access: 'Operator',
    body: () => json({ body: 'corrected by the route table' }),
  },
  'DELETE /api/v1/alerts/comments/{id}': { access: 'Operator' },
  'POST /api/v1/alerts/{id}/tune': {
    access: 'Operator',
    body: () => json({ action: 'suppress_source' }),
    // Tuning twice: the second caller finds the source already suppressed.
    alsoAllowed: [409],
  },
  'GET /api/v1/events': { access: 'Viewer', stream: true },
  // saved alert views: every role keeps its own. The world's view is the first Administrator's
  // and private, so another member changing or deleting it is answered 404 (alert-views.test.ts
  // checks each role on views of its own and shared ones).
  'GET /api/v1/alertviews/': { access: 'Viewer' },
  'POST /api/v1/alertviews/': {
    access: 'Viewer',
    body: (w) => json({ name: `view ${w.unique()}`, filters: { severity: 2, range: '24h' } }),
  },
  'PUT /api/v1/alertviews/{id}': {
    access: 'Viewer',
    body: (w) => json({ name: `view ${w.unique()}` }),
    alsoAllowed: [404],
  },
  'DELETE /api/v1/alertviews/{id}': { access: 'Viewer', alsoAllowed: [404] },
  // firewall rulesets
  'GET /api/v1/fwruleset/': { access: 'Viewer' },
  'POST /api/v1/fwruleset/': {
    access: 'Operator',
    body: (w) => json({ name: `fw ${w.unique()}` }),
  },
  'GET /api/v1/fwruleset/{id}': { access: 'Viewer' },
  'GET /api/v1/fwruleset/{id}/hits': { access: 'Viewer' },
  'PUT /api/v1/fwruleset/{id}': {
    access: 'Operator',
    body: (w) => json({ name: `fw ${w.unique()}`, description: 'changed' }),
  },
  'DELETE /api/v1/fwruleset/{id}': { access: 'Operator' },
  // change previews: the save's method, path + /preview and body (nothing is saved)
  'PUT /api/v1/fwruleset/{id}/preview': {
    access: 'Operator',
    body: (w) => json({ name: `fw ${w.unique()}`, description: 'changed' }),
  },
  'PUT /api/v1/devices/{id}/preview': { access: 'Operator', body: () => json({ city: 'Oslo' }) },
  'PUT /api/v1/devices/{id}/network/preview': {
    access: 'Operator',
    body: () => json({ l3_mode: false }),
  },
  'PUT /api/v1/policies/{id}/preview': {
    access: 'Operator',
    body: () => json({ description: 'changed' }),
  },
  'PUT /api/v1/deviceconfigurationprofiles/{id}/preview': {
    access: 'Operator',
    body: () => json({ description: 'changed' }),
  },
  'POST /api/v1/rules/preview': {
    access: 'Operator',
    body: (w) => json({ text: RULE_TEXT(9_300_000 + w.unique()) }),
  },
  'PUT /api/v1/rules/{id}/preview': { access: 'Operator', body: () => json({ enabled: true }) },
  'PUT /api/v1/groups/{id}/preview': {
    access: 'Operator',
    body: () => json({ description: 'changed' }),
  },
  'POST /api/v1/alerts/{id}/tune/preview': {
    access: 'Operator',
    body: () => json({ action: 'suppress_source' }),
    // The world's alert may have been tuned already by the tune route's own row.
    alsoAllowed: [409],
  },
  'POST /api/v1/policies/{id}/rollback/preview': {
    access: 'Operator',
    body: () => json({ version: 1 }),
  },
  'POST /api/v1/fwruleset/{id}/rollback/preview': {
    access: 'Operator',
    body: () => json({ version: 1 }),
  },
  'POST /api/v1/deviceconfigurationprofiles/{id}/rollback/preview': {
    access: 'Operator',
    body: () => json({ version: 1 }),
  },
  'POST /api/v1/devices/{id}/network/rollback/preview': {
    access: 'Operator',
    body: () => json({ version: 1 }),
  },
  'POST /api/v1/rules/import/preview': {
    access: 'Operator',
    multipart: true,
    body: (w) => upload('matrix.rules', `${RULE_TEXT(9_400_000 + w.unique())}\n`),
  },
  'POST /api/v1/policies/{id}/upload/preview': {
    access: 'Operator',
    multipart: true,
    body: () => upload('disable.conf', '1:9000002\n'),
  },
  // changes with an end date
  'GET /api/v1/expiring': { access: 'Viewer' },
  // the audit log
  'GET /api/v1/audit/': { access: 'Administrator' },
  'GET /api/v1/audit/export': { access: 'Administrator' },
  'GET /api/v1/fwruleset/{id}/versions': { access: 'Viewer' },
  'GET /api/v1/fwruleset/{id}/versions/{a}/diff/{b}': { access: 'Viewer' },
  'POST /api/v1/fwruleset/{id}/rollback': { access: 'Operator', body: () => json({ version: 1 }) },
  // staged deploys
  'GET /api/v1/organization/settings': { access: 'Administrator' },
  'PUT /api/v1/organization/settings': {
    access: 'Administrator',
    body: () => json({ canary_wait_minutes: 20 }),
  },
  'GET /api/v1/deployments/pending': { access: 'Viewer' },
  'GET /api/v1/devices/{id}/pending-deploy': { access: 'Viewer' },
  'GET /api/v1/deployments/': { access: 'Viewer' },
  'POST /api/v1/deployments/': {
    access: 'Operator',
    body: (w) => json({ device_ids: [w.ids.device] }),
    // The world's organization applies every save at once: nothing to deploy.
    alsoAllowed: [409],
  },
  'GET /api/v1/deployments/{id}': { access: 'Viewer' },
};

/**
 * Routes /openapi.json does not list (its own document and the two event streams): checked
 * from this list so they are not forgotten.
 */
export const UNLISTED_ROUTES = [
  'GET /api/v1/openapi.json',
  'GET /api/v1/agent/events',
  'GET /api/v1/events',
] as const;
ROUTE_TABLE['GET /api/v1/openapi.json'] = { access: 'public' };
