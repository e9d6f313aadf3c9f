import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { postFiles } from './corpus.js';
import type { Queryable } from '../db/client.js';
import { api, signIn } from './harness.js';

/**
 * Imports `rules` as the rules file `fileName` and creates the policy `name` of every group
 * of the organization; the policy's id. For tests that need a device running real rules.
 */
export async function policyFromRules(
  app: FastifyInstance,
  headers: { authorization: string },
  fileName: string,
  rules: string,
  name: string,
): Promise<number> {
  const imported = await postFiles(app, '/rules/import', headers, [
    { name: fileName, bytes: rules },
  ]);
  if (imported.statusCode !== 200) throw new Error(`import failed: ${imported.body}`);
  const groups = (await api(app, { method: 'GET', url: '/groups/', headers })).json<{
    data: { id: number }[];
  }>().data;
  const policy = await api(app, {
    method: 'POST',
    url: '/policies/',
    headers,
    payload: { name, group_ids: groups.map((g) => g.id) },
  });
  if (policy.statusCode !== 201) throw new Error(`policy failed: ${policy.body}`);
  return policy.json<{ id: number }>().id;
}

/**
 * The console's live channel (`GET /events`) as `headers` sees it, opened on `app` (which is
 * made to listen on a free port if it does not yet). `count(event, wanted)` reads until the
 * stream has carried `wanted` events of that name, or five seconds passed, and says how many
 * it carried.
 */
export async function consoleEvents(app: FastifyInstance, headers: { authorization: string }) {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const controller = new AbortController();
  const response = await fetch(`http://127.0.0.1:${port}/api/v1/events`, {
    headers,
    signal: controller.signal,
  });
  if (!response.body) throw new Error('no event stream');
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  await reader.read(); // the retry: line
  const decoder = new TextDecoder();
  let received = '';
  const carried = (event: string) => received.split(`event: ${event}`).length - 1;
  return {
    async count(event: string, wanted: number): Promise<number> {
      const deadline = Date.now() + 5000;
      while (carried(event) < wanted && Date.now() < deadline) {
        const { value, done } = await reader.read();
        if (done) break;
        received += decoder.decode(value, { stream: true });
      }
      return carried(event);
    },
    close: () => controller.abort(),
  };
}

type AuthHeaders = { authorization: string };

/** The lock-out tests' firewall policies: everything not accepted is dropped. */
export const DROP_ALL_POLICIES = { input: 'drop', forward: 'drop', output: 'drop' };

/** Loopback and replies in both directions: what a ruleset needs beside its management rule. */
export const LOOPBACK_AND_REPLIES = [
  { chain: 'input', action: 'accept', in_interface: 'lo' },
  { chain: 'input', action: 'accept', states: ['established', 'related'] },
  { chain: 'output', action: 'accept', out_interface: 'lo' },
  { chain: 'output', action: 'accept', states: ['established', 'related'] },
];

/** Where the lock-out tests' agents reach the server: not PUBLIC_URL's address. */
export const AGENT_SERVER_ENDPOINT = { address: '10.0.0.5', port: 8443 };

/** The output rule that keeps an agent reaching AGENT_SERVER_ENDPOINT. */
export const MANAGEMENT_RULE = {
  chain: 'output',
  action: 'accept',
  protocol: 'tcp',
  destination: AGENT_SERVER_ENDPOINT.address,
  destination_ports: String(AGENT_SERVER_ENDPOINT.port),
};

/** Creates the Operator op@example.com and signs them in. */
export async function signInNewOperator(
  app: FastifyInstance,
  admin: AuthHeaders,
): Promise<AuthHeaders> {
  const created = await api(app, {
    method: 'POST',
    url: '/users/',
    headers: admin,
    payload: { email: 'op@example.com', password: 'Operator#2026', role: 'Operator' },
  });
  if (created.statusCode !== 201) throw new Error(`operator failed: ${created.body}`);
  return signIn(app, 'op@example.com', 'Operator#2026');
}

/** The password of the devices `enrolDevice` creates. */
export const ENROLLED_DEVICE_PASSWORD = 'device-secret-1234';

/**
 * Creates a device (`device`: its name and what it is given) and signs its agent in: the
 * device's id and the agent's headers.
 */
export async function enrolDevice(
  app: FastifyInstance,
  admin: AuthHeaders,
  device: {
    name: string;
    policy_id?: number | null;
    profile_id?: number | null;
    firewall_id?: number | null;
  },
): Promise<{ id: number; agent: AuthHeaders }> {
  const created = await api(app, {
    method: 'POST',
    url: '/devices/',
    headers: admin,
    payload: { ...device, password: ENROLLED_DEVICE_PASSWORD },
  });
  if (created.statusCode !== 201) throw new Error(`device failed: ${created.body}`);
  const id = created.json<{ id: number }>().id;
  const login = await api(app, {
    method: 'POST',
    url: '/agent/login',
    payload: { device_id: id, password: ENROLLED_DEVICE_PASSWORD, protocol: 1 },
  });
  if (login.statusCode !== 200) throw new Error(`agent login failed: ${login.body}`);
  const token = login.json<{ access_token: string }>().access_token;
  return { id, agent: { authorization: `Bearer ${token}` } };
}

/**
 * Creates device `name`, signs its agent in, and has it beat once saying it reaches the
 * server at AGENT_SERVER_ENDPOINT, as the lock-out check then assumes; the device's id.
 */
export async function deviceReachingServer(
  app: FastifyInstance,
  admin: AuthHeaders,
  name: string,
): Promise<number> {
  const { id, agent } = await enrolDevice(app, admin, { name });
  const beat = await api(app, {
    method: 'POST',
    url: '/agent/heartbeat',
    headers: agent,
    payload: {
      state: 'running',
      local: { config_version: null, policy_version: null },
      agent_version: '0.2.0',
      server_endpoint: AGENT_SERVER_ENDPOINT,
    },
  });
  if (beat.statusCode !== 200) throw new Error(`heartbeat failed: ${beat.body}`);
  return id;
}

/**
 * Opens a second organization through `/users/open` and signs its Administrator in: the
 * caller every organization-scope check is made against.
 */
export async function signInOtherOrganization(
  app: FastifyInstance,
  email = 'other@example.com',
): Promise<AuthHeaders> {
  const password = 'Other#2026!';
  const opened = await api(app, {
    method: 'POST',
    url: '/users/open',
    payload: { email, password, organization: `Other ${email}` },
  });
  if (opened.statusCode >= 300) throw new Error(`open failed: ${opened.body}`);
  return signIn(app, email, password);
}

/**
 * What ingest keeps beside the alerts it stores (the hourly rollup, each device's alerts per
 * day and the signature catalogue), computed again from device_alerts: for tests that write
 * device_alerts directly. The ingest path itself keeps them (alert-rollup.test.ts).
 */
export async function recountAlertRollups(db: Queryable): Promise<void> {
  await db.query('DELETE FROM alert_rollup');
  await db.query(
    `INSERT INTO alert_rollup (org_id, device_id, hour, gid, sid, severity, count, first_seen,
                               last_seen)
     SELECT org_id, device_id, date_trunc('hour', time, 'UTC'), gid, sid, severity, count(*),
            min(time), max(time)
       FROM device_alerts GROUP BY 1, 2, 3, 4, 5, 6`,
  );
  await db.query('DELETE FROM alert_device_days');
  await db.query(
    `INSERT INTO alert_device_days (org_id, device_id, day, count)
     SELECT org_id, device_id, (time AT TIME ZONE 'UTC')::date, count(*)
       FROM device_alerts GROUP BY 1, 2, 3`,
  );
  await db.query(
    `INSERT INTO alert_signatures (org_id, gid, sid, msg)
     SELECT DISTINCT org_id, gid, sid, msg FROM device_alerts WHERE msg IS NOT NULL
     ON CONFLICT DO NOTHING`,
  );
}
