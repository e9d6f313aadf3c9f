import { createSecretKey } from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import { writeAgentRelease } from './agent-release.js';
import { postFiles } from './corpus.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from './harness.js';

/**
 * A server with one of everything in its first organization, and a caller of every kind, for
 * the tests generated over the route table (route-matrix.test.ts, route-fuzz.test.ts).
 */

export const CALLERS = [
  'none',
  'bad',
  'expired',
  'agent',
  'Viewer',
  'Operator',
  'Administrator',
  'otherAdministrator',
] as const;
export type Caller = (typeof CALLERS)[number];

/** The kinds of object a path's `{id}` names. */
export type Kind =
  | 'user'
  | 'rule'
  | 'group'
  | 'policy'
  | 'profile'
  | 'device'
  | 'ruleset'
  | 'alert'
  | 'source'
  | 'deployment'
  | 'alertview'
  | 'comment';

/** Which kind of object the first path segment after /api/v1/ holds. */
export const KIND_OF_SEGMENT: Record<string, Kind> = {
  users: 'user',
  rules: 'rule',
  groups: 'group',
  policies: 'policy',
  deviceconfigurationprofiles: 'profile',
  devices: 'device',
  deviceupdate: 'device',
  devicemonitor: 'device',
  devicelog: 'device',
  devicelogsnort: 'device',
  alerts: 'alert',
  fwruleset: 'ruleset',
  rulesources: 'source',
  deployments: 'deployment',
  alertviews: 'alertview',
};

/** Paths whose `{id}` is not the kind of their first segment. */
const KIND_OF_PATH: Record<string, Kind> = {
  '/api/v1/alerts/comments/{id}': 'comment',
  '/api/v1/ruleanalytics/silent/{id}': 'policy',
};

export const SECRET_KEY = 'route-table-tests-secret-key-0123456789';
const DEVICE_PASSWORD = 'device-secret-1234';
const USER_PASSWORD = 'Member#2026';
export const RULE_TEXT = (sid: number) =>
  `alert tcp any any -> $HOME_NET 22 (msg:"route table ${sid}"; sid:${sid}; rev:1;)`;

export interface World {
  server: TestServer;
  app: FastifyInstance;
  headers: Record<Caller, Record<string, string>>;
  /** One real object of each kind in the first organization. */
  ids: Record<Kind, number>;
  /** A throwaway object of that kind in the first organization (for DELETE). */
  fresh(kind: Kind): Promise<number>;
  /** A number no other call of this world has had (for unique names). */
  unique(): number;
  /** An update of the source `ids.source` (for `{updateId}`). */
  updateId: number;
}

/** A source the world never really fetches: nothing listens on port 9 of the loopback. */
export const SOURCE_BODY = (unique: number) => ({
  name: `source ${unique}`,
  url: 'http://127.0.0.1:9/world.rules',
  schedule: { kind: 'manual' },
});

type Headers = Record<string, string>;

async function expect2xx(
  response: Promise<LightMyRequestResponse>,
  what: string,
): Promise<LightMyRequestResponse> {
  const done = await response;
  if (done.statusCode >= 300) throw new Error(`${what}: ${done.statusCode} ${done.body}`);
  return done;
}

const idOf = (response: LightMyRequestResponse) => response.json<{ id: number }>().id;

/** Builds the world: organization 1 with one of everything, and a second organization. */
export async function buildWorld(): Promise<World> {
  const server = await startTestServer({ SECRET_KEY });
  await writeAgentRelease(path.join(server.dataDir, 'agent-release'));
  const { app } = server;
  let counter = 0;
  const unique = () => ++counter;
  const admin = await signIn(app, ADMIN_EMAIL, ADMIN_PASSWORD);
  const call = (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload: object,
    as: Headers = admin,
  ) => expect2xx(api(app, { method, url, headers: as, payload }), `${method} ${url}`);

  const member = async (role: 'Viewer' | 'Operator' | 'Administrator') => {
    const email = `${role.toLowerCase()}-${unique()}@example.com`;
    const created = await call('POST', '/users/', { email, password: USER_PASSWORD, role });
    return { id: idOf(created), email };
  };

  const factories: Record<
    Exclude<Kind, 'alert' | 'rule' | 'deployment' | 'comment'>,
    () => Promise<number>
  > = {
    user: async () => (await member('Viewer')).id,
    group: async () => idOf(await call('POST', '/groups/', { name: `group ${unique()}` })),
    policy: async () => idOf(await call('POST', '/policies/', { name: `policy ${unique()}` })),
    profile: async () =>
      idOf(
        await call('POST', '/deviceconfigurationprofiles/', {
          name: `profile ${unique()}`,
          variables: { HOME_NET: '[10.0.0.0/8]' },
        }),
      ),
    device: async () =>
      idOf(
        await call('POST', '/devices/', { name: `sensor ${unique()}`, password: DEVICE_PASSWORD }),
      ),
    ruleset: async () => idOf(await call('POST', '/fwruleset/', { name: `ruleset ${unique()}` })),
    source: async () => idOf(await call('POST', '/rulesources/', SOURCE_BODY(unique()))),
    alertview: async () =>
      idOf(await call('POST', '/alertviews/', { name: `view ${unique()}`, filters: {} })),
  };

  const rule = idOf(await call('POST', '/rules/', { text: RULE_TEXT(9_000_001) }));
  await expect2xx(
    postFiles(app, '/rules/import', admin, [
      { name: 'world.rules', bytes: `${RULE_TEXT(9_000_002)}\n` },
    ]),
    'rules import',
  );
  const group = await factories.group();
  const profile = await factories.profile();
  const ruleset = await factories.ruleset();
  const policy = idOf(await call('POST', '/policies/', { name: 'world', group_ids: [group] }));
  const device = idOf(
    await call('POST', '/devices/', {
      name: 'world sensor',
      password: DEVICE_PASSWORD,
      profile_id: profile,
      policy_id: policy,
      firewall_id: ruleset,
    }),
  );
  const agentToken = (
    await call('POST', '/agent/login', { device_id: device, password: DEVICE_PASSWORD }, {})
  ).json<{ access_token: string }>().access_token;
  const agent = { authorization: `Bearer ${agentToken}` };
  await call(
    'POST',
    '/agent/alerts',
    {
      seq: 1,
      events: [
        {
          event_type: 'alert',
          timestamp: new Date().toISOString(),
          src_ip: '203.0.113.7',
          src_port: 40000,
          dest_ip: '10.0.0.2',
          dest_port: 22,
          proto: 'TCP',
          alert: { gid: 1, signature_id: 9_000_001, rev: 1, signature: 'route table', severity: 2 },
        },
      ],
    },
    agent,
  );
  const alerts = await call('GET', '/alerts/', {});
  const alert = alerts.json<{ data: { id: number }[] }>().data[0]?.id;
  if (alert === undefined) throw new Error('the alert was not stored');
  const target = await member('Viewer');
  const source = await factories.source();
  const alertview = await factories.alertview();
  const updateId = (await call('POST', `/rulesources/${source}/update`, {})).json<{
    update_id: number;
  }>().update_id;

  // A deployment: staged for a moment, a profile change deployed, then at once again.
  await call('PUT', '/organization/settings', { deploy_mode: 'staged' });
  await call('PUT', `/deviceconfigurationprofiles/${profile}`, {
    variables: { HOME_NET: '[10.0.0.0/16]' },
  });
  const deployment = idOf(await call('POST', '/deployments/', { all: true }));
  await call('PUT', '/organization/settings', { deploy_mode: 'immediate' });

  const signedIn = async (role: 'Viewer' | 'Operator' | 'Administrator') =>
    signIn(app, (await member(role)).email, USER_PASSWORD);
  const other = `other-${unique()}@example.com`;
  await expect2xx(
    api(app, {
      method: 'POST',
      url: '/users/open',
      payload: { email: other, password: USER_PASSWORD, organization: 'Other' },
    }),
    'self-registration',
  );

  // Comments are an Operator's own: the Operator and an Administrator may change them.
  const operator = await signedIn('Operator');
  const newComment = async () => {
    const added = await call(
      'POST',
      `/alerts/${alert}/comments`,
      { body: `comment ${unique()}` },
      operator,
    );
    const comments = added.json<{ data: { id: number }[] }>().data;
    const last = comments.at(-1);
    if (last === undefined) throw new Error('the comment was not stored');
    return last.id;
  };
  const comment = await newComment();

  const expired = await new SignJWT({ ver: 0 })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('1')
    .setIssuer('palisade')
    .setAudience('palisade-console')
    .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
    .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
    .sign(createSecretKey(new TextEncoder().encode(SECRET_KEY)));

  return {
    server,
    app,
    unique,
    updateId,
    ids: {
      user: target.id,
      rule,
      group,
      policy,
      profile,
      device,
      ruleset,
      alert,
      source,
      deployment,
      alertview,
      comment,
    },
    headers: {
      none: {},
      bad: { authorization: 'Bearer not.a.token' },
      expired: { authorization: `Bearer ${expired}` },
      agent,
      Viewer: await signedIn('Viewer'),
      Operator: operator,
      Administrator: admin,
      otherAdministrator: await signIn(app, other, USER_PASSWORD),
    },
    fresh: (kind) => {
      if (kind === 'comment') return newComment();
      if (kind === 'alert' || kind === 'rule' || kind === 'deployment')
        return Promise.resolve({ rule, alert, deployment }[kind]);
      return factories[kind]();
    },
  };
}

/** The operations /openapi.json lists, as `METHOD /api/v1/path`. */
export interface Operation {
  key: string;
  method: string;
  path: string;
  /** Query parameters and path parameters the operation declares. */
  query: string[];
  pathParams: string[];
  /** The JSON body's schema, if it takes one. */
  bodySchema?: JsonSchema;
}

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
  $ref?: string;
}

interface OpenApiOperation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export async function operations(app: FastifyInstance): Promise<Operation[]> {
  const response = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  const doc = response.json<{ paths: Record<string, Record<string, OpenApiOperation>> }>();
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const parameters = op.parameters ?? [];
      const content = op.requestBody?.content ?? {};
      const json = content['application/json']?.schema;
      return {
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        query: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        ...(json ? { bodySchema: json } : {}),
      };
    }),
  );
}

/** The operation's path with its parameters filled in from `ids`. */
export function concretePath(op: Operation, id: number | string, updateId = 0): string {
  return (
    op.path
      .replace('{id}', String(id))
      .replace('{updateId}', String(updateId))
      // Versions: every object has its version 1.
      .replace('{a}', '1')
      .replace('{b}', '1')
      // Rule analytics: a rule by gid and sid (one that never fired answers zeros).
      .replace('{gid}', '1')
      .replace('{sid}', '1')
      .replace('{username}', encodeURIComponent(String(id)))
      .replace('{name}', encodeURIComponent(String(id)))
  );
}

/** The kind of object `{id}` names in this operation's path, if it has one. */
export function kindOf(op: Operation): Kind | undefined {
  if (!op.pathParams.includes('id')) return undefined;
  const byPath = KIND_OF_PATH[op.path];
  if (byPath) return byPath;
  const segment = op.path.split('/')[3] ?? '';
  const kind = KIND_OF_SEGMENT[segment];
  if (!kind) throw new Error(`${op.key}: no kind of object for the segment "${segment}"`);
  return kind;
}
