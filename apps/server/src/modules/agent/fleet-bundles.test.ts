import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ReadableStreamReadResult } from 'node:stream/web';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { statementText } from '../../db/client.js';
import { notifyDevices } from '../../plugins/device-events.js';
import { encodingStats } from './bundle-encoding.js';
import { policyFromRules } from '../../test/fixtures.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

type Headers = { authorization: string };
interface Bundle {
  config_version: number;
  policy_version: number;
  rules: string;
  thresholds: string;
  variables: Record<string, string>;
}

// Past the compression threshold, so that answers are compressed.
const RULES = [
  'alert tcp any any -> $HOME_NET 22 (msg:"SSH"; sid:7100001; rev:1;)',
  ...Array.from(
    { length: 20 },
    (_, i) =>
      `alert tcp any any -> $HOME_NET ${1000 + i} (msg:"Port ${i}"; sid:${7100100 + i}; rev:1;)`,
  ),
].join('\n');
const PASSWORD = 'device-secret-1234';
/** The query that reads devices' versions (agentRepository.remotes). */
const REMOTES_SQL =
  /FROM devices d LEFT JOIN device_deployed dp ON dp.device_id = d.id\s+LEFT JOIN policies p ON p.id = d.policy_id WHERE d.id = ANY/;

/** A device's push stream, read event by event. */
async function versionStream(app: FastifyInstance, headers: Headers) {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const controller = new AbortController();
  const response = await fetch(`http://127.0.0.1:${port}/api/v1/agent/events`, {
    headers,
    signal: controller.signal,
  });
  if (!response.body) throw new Error('no event stream');
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const decoder = new TextDecoder();
  let received = '';
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  return {
    /** The next `versions` event, or null when none came within `ms`. */
    async next(ms = 5000): Promise<{ policy_version: number } | null> {
      const deadline = Date.now() + ms;
      for (;;) {
        const at = received.indexOf('event: versions');
        const end = at >= 0 ? received.indexOf('\n\n', at) : -1;
        if (end >= 0) {
          const chunk = received.slice(at, end);
          received = received.slice(end + 2);
          return JSON.parse(chunk.split('data: ')[1] ?? '{}') as { policy_version: number };
        }
        const left = deadline - Date.now();
        if (left <= 0) return null;
        pending ??= reader.read();
        const read = await Promise.race([
          pending,
          new Promise<null>((resolve) => setTimeout(() => resolve(null), left)),
        ]);
        if (read === null) return null;
        pending = undefined;
        if (read.done) return null;
        received += decoder.decode(read.value);
      }
    },
    close: () => controller.abort(),
  };
}

describe('bundles and pushes for a fleet', () => {
  let server: TestServer;
  let admin: Headers;
  let policyId: number;
  const devices: { id: number; agent: Headers }[] = [];

  const asConsole = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    api(server.app, { method, url, headers: admin, ...(payload ? { payload } : {}) });
  const pull = async (app: FastifyInstance, agent: Headers) => {
    const response = await api(app, { method: 'GET', url: '/agent/bundle', headers: agent });
    expect(response.statusCode).toBe(200);
    return { body: response.json<Bundle>(), etag: response.headers['etag'] as string };
  };
  const suppress = (ip: string) =>
    asConsole('PUT', `/policies/${policyId}`, {
      thresholds: [{ kind: 'suppress', gid: 1, sid: 7100001, track: 'by_src', ip }],
    });

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    policyId = await policyFromRules(server.app, admin, 'fleet.rules', RULES, 'Fleet');
    const profile = await asConsole('POST', '/deviceconfigurationprofiles/', {
      name: 'Branch',
      variables: { HOME_NET: '[10.0.0.0/8]', EXTERNAL_NET: '!$HOME_NET' },
    });
    for (let i = 0; i < 4; i++) {
      const created = await asConsole('POST', '/devices/', {
        name: `fleet-${i}`,
        password: PASSWORD,
        policy_id: policyId,
        profile_id: profile.json<{ id: number }>().id,
      });
      const id = created.json<{ id: number }>().id;
      const login = await api(server.app, {
        method: 'POST',
        url: '/agent/login',
        payload: { device_id: id, password: PASSWORD, protocol: 1 },
      });
      devices.push({
        id,
        agent: { authorization: `Bearer ${login.json<{ access_token: string }>().access_token}` },
      });
    }
  });
  afterAll(() => server.close());

  it('renders a bundle once per content however many devices pull it', async () => {
    const parts =
      /FROM policy_groups|FROM devices d LEFT JOIN device_profiles|FROM rendered_contents/;
    const counted = countQueries(server, parts);
    const auth = countQueries(
      server,
      /SELECT id, org_id, token_version FROM devices WHERE id = ANY/,
    );
    const versions = countQueries(server, REMOTES_SQL);
    const bundles = await Promise.all(devices.map(({ agent }) => pull(server.app, agent)));
    // The pulls' tokens are checked in the one query that reads their versions.
    expect(versions.stop().total).toBe(1);
    expect(auth.stop().total).toBe(0);
    const renders = counted.stop();
    expect(new Set(bundles.map((b) => b.body.rules)).size).toBe(1);
    expect(bundles[0]?.body.rules).toContain('sid:7100001');
    // One policy and one configuration (the devices share their profile), each looked up once
    // in the version store: the policy's text is there (stored with its version) and is not
    // rendered; the configuration is not (it is stored when deployed) and is rendered once.
    expect(renders.stored).toBe(2);
    expect(renders.policy).toBe(0);
    expect(renders.config).toBe(1);
    const again = countQueries(server, parts);
    await pull(server.app, devices[0]?.agent ?? admin);
    expect(again.stop().total).toBe(0);
  });

  it('compresses a bundle once per content and encoding however many devices pull it', async () => {
    const pullEncoded = async (agent: Headers, accept: string) => {
      const response = await api(server.app, {
        method: 'GET',
        url: '/agent/bundle',
        headers: { ...agent, 'accept-encoding': accept },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['vary']).toContain('accept-encoding');
      return response;
    };
    const plain = await Promise.all(devices.map(({ agent }) => pull(server.app, agent)));
    const before = encodingStats.compressed;
    const brotli = await Promise.all(devices.map(({ agent }) => pullEncoded(agent, 'br, gzip')));
    const gzip = await Promise.all(devices.map(({ agent }) => pullEncoded(agent, 'gzip')));
    // One content (the devices share their policy and profile) in two encodings.
    expect(encodingStats.compressed - before).toBe(2);
    for (const [i, answer] of brotli.entries()) {
      expect(answer.headers['content-encoding']).toBe('br');
      expect(answer.headers['etag']).toBe(plain[i]?.etag);
      const json: unknown = JSON.parse(zlib.brotliDecompressSync(answer.rawPayload).toString());
      expect(json).toEqual(plain[i]?.body);
    }
    for (const [i, answer] of gzip.entries()) {
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(zlib.gunzipSync(answer.rawPayload).toString())).toEqual(plain[i]?.body);
    }
    // A client that takes no compression (or refuses it) gets the JSON as it is.
    const identity = await pullEncoded(devices[0]?.agent ?? admin, 'br;q=0, identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.json()).toEqual(plain[0]?.body);
    // A change is a new content: compressed once more, and served to every device.
    expect((await suppress('10.9.0.9')).statusCode).toBe(200);
    const changed = await Promise.all(devices.map(({ agent }) => pullEncoded(agent, 'br')));
    expect(encodingStats.compressed - before).toBe(3);
    for (const answer of changed) {
      expect(zlib.brotliDecompressSync(answer.rawPayload).toString()).toContain('10.9.0.9');
    }
  });

  it('never serves a stale bundle: the next pull after a change carries it, on any replica', async () => {
    const [first, second] = devices;
    if (!first || !second) throw new Error('no devices');
    // A second replica on the same database, with its own caches.
    const replica = await buildApp({
      config: loadConfig({
        DATA_DIR: server.dataDir,
        ADMIN_EMAIL,
        ADMIN_PASSWORD,
        LOG_LEVEL: 'silent',
        AGENT_RELEASE_DIR: path.join(server.dataDir, 'agent-release'),
      }),
      db: server.db,
      webDist: path.join(server.dataDir, 'no-console'),
    });
    await replica.ready();
    try {
      const before = await pull(replica, second.agent);
      for (const ip of ['10.9.0.1', '10.9.0.2']) {
        // The change is made through this replica; the other one serves the next pulls.
        expect((await suppress(ip)).statusCode).toBe(200);
        const after = await pull(replica, second.agent);
        expect(after.body.thresholds).toContain(ip);
        expect(after.body.policy_version).toBeGreaterThan(before.body.policy_version);
        expect(after.etag).not.toBe(before.etag);
        expect((await pull(server.app, first.agent)).body.thresholds).toContain(ip);
      }
      // A profile change reaches the configuration part the same way.
      const profiles = await asConsole('GET', '/deviceconfigurationprofiles/?limit=10&offset=0');
      const profileId = profiles.json<{ data: { id: number }[] }>().data[0]?.id;
      const edited = await asConsole('PUT', `/deviceconfigurationprofiles/${profileId}`, {
        name: 'Branch',
        variables: { HOME_NET: '[172.16.0.0/12]', EXTERNAL_NET: '!$HOME_NET' },
      });
      expect(edited.statusCode).toBe(200);
      const changed = await pull(replica, second.agent);
      expect(changed.body.variables['HOME_NET']).toBe('[172.16.0.0/12]');
      expect(changed.body.config_version).toBeGreaterThan(before.body.config_version);
    } finally {
      await replica.close();
    }
  });

  it('writes the apply reports of requests that arrive together in one statement, which checks their tokens', async () => {
    const auth = countQueries(
      server,
      /SELECT id, org_id, token_version FROM devices WHERE id = ANY/,
    );
    const writes = countQueries(server, /UPDATE devices d\s+SET config_version_local/);
    const answers = await Promise.all(
      devices.map(({ agent }, i) =>
        api(server.app, {
          method: 'POST',
          url: '/agent/applied',
          headers: agent,
          payload: { config_version: 900 + i, policy_version: 800 + i, ok: true },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(devices.map(() => 200));
    // No query of their own for the devices' tokens: the write checks them.
    expect(auth.stop().total).toBe(0);
    expect(writes.stop().total).toBe(1);
    // Each device's report landed, on its own row and only there.
    const rows = await server.db.query<{ id: number; c: number; p: number; state: string }>(
      `SELECT id, config_version_local AS c, policy_version_local AS p, state FROM devices
        WHERE id = ANY($1::int[]) ORDER BY id`,
      [devices.map((d) => d.id)],
    );
    expect(rows).toEqual(
      devices.map((d, i) => ({ id: d.id, c: 900 + i, p: 800 + i, state: 'running' })),
    );
    // A failure and a later success of one device in one group: the later one counts.
    const [first] = devices;
    if (!first) throw new Error('no devices');
    const report = (payload: object) =>
      api(server.app, { method: 'POST', url: '/agent/applied', headers: first.agent, payload });
    await Promise.all([
      report({ config_version: 1, policy_version: 1, ok: false, error: 'reload failed' }),
      report({ config_version: 950, policy_version: 850, ok: true }),
    ]);
    const [row] = await server.db.query<{ c: number; last_error: string | null }>(
      'SELECT config_version_local AS c, last_error FROM devices WHERE id = $1',
      [first.id],
    );
    expect(row).toEqual({ c: 950, last_error: null });
  });

  it('stores log batches that arrive together in one statement, each batch once', async () => {
    const send = (agent: Headers, seq: number, msg: string) =>
      api(server.app, {
        method: 'POST',
        url: '/agent/logs',
        headers: agent,
        payload: { seq, lines: [{ time: new Date().toISOString(), level: 'info', msg }] },
      });
    const stores = countQueries(server, /INSERT INTO device_logs/);
    // Every device its batch 1, and the first device's sent twice at once (a retry).
    const [first] = devices;
    if (!first) throw new Error('no devices');
    const answers = await Promise.all([
      ...devices.map(({ agent, id }) => send(agent, 1, `applied on ${id}`)),
      send(first.agent, 1, `applied on ${first.id}`),
    ]);
    expect(answers.map((a) => a.json<{ ack: number }>().ack)).toEqual(
      [...devices, first].map(() => 1),
    );
    // The retry goes into a statement of its own; everything else into one.
    expect(stores.stop().total).toBe(2);
    // Sent again later: acknowledged, not stored.
    expect((await send(first.agent, 1, 'again')).json()).toEqual({ ack: 1 });
    const rows = await server.db.query<{ device_id: number; msg: string }>(
      'SELECT device_id, msg FROM device_logs WHERE device_id = ANY($1::int[]) ORDER BY device_id',
      [devices.map((d) => d.id)],
    );
    expect(rows).toEqual(devices.map(({ id }) => ({ device_id: id, msg: `applied on ${id}` })));
  });

  it('stores alert batches that arrive together in one transaction, each batch once', async () => {
    const alert = (deviceId: number, n: number) => ({
      timestamp: new Date(Date.UTC(2026, 10, 2, 10, n)).toISOString().replace('Z', '+0000'),
      event_type: 'alert',
      src_ip: '10.0.0.1',
      src_port: 40000 + n,
      dest_ip: '10.0.0.2',
      dest_port: 80,
      proto: 'TCP',
      flow_id: deviceId * 1000 + n,
      alert: { gid: 1, signature_id: 7100001, rev: 1, signature: 'SSH', severity: 2 },
    });
    const send = (agent: Headers, seq: number, events: unknown[]) =>
      api(server.app, {
        method: 'POST',
        url: '/agent/alerts',
        headers: agent,
        payload: { seq, events },
      });
    const transactions = countTransactions(server);
    const [first] = devices;
    if (!first) throw new Error('no devices');
    // Every device its batch 1, and the first device's sent twice at once (a retry).
    const answers = await Promise.all([
      ...devices.map(({ agent, id }) => send(agent, 1, [alert(id, 1), alert(id, 2)])),
      send(first.agent, 1, [alert(first.id, 1), alert(first.id, 2)]),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([...devices, first].map(() => 200));
    expect(answers.map((a) => a.json<{ ack: number }>().ack)).toEqual(
      [...devices, first].map(() => 1),
    );
    expect(transactions.stop()).toBe(1);
    const stored = async () =>
      server.db.query<{ device_id: number; flows: string; alerts: number; rolled: number }>(
        `SELECT a.device_id, string_agg(a.flow_id::text, ',' ORDER BY a.flow_id) AS flows,
                count(*)::int AS alerts,
                (SELECT sum(count)::int FROM alert_rollup r WHERE r.device_id = a.device_id) AS rolled
           FROM device_alerts a WHERE a.device_id = ANY($1::int[])
          GROUP BY a.device_id ORDER BY a.device_id`,
        [devices.map((d) => d.id)],
      );
    // Once each (the retry stored nothing), and the rollup counted them once.
    expect(await stored()).toEqual(
      devices.map(({ id }) => ({
        device_id: id,
        flows: `${id * 1000 + 1},${id * 1000 + 2}`,
        alerts: 2,
        rolled: 2,
      })),
    );

    // A batch the database refuses, gathered with others: they are stored, it is not, and its
    // device's acknowledged number stays where it was (the agent sends it again).
    await server.db.query(
      `CREATE FUNCTION refuse_test_alert() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF NEW.flow_id = ${first.id * 1000 + 3} THEN RAISE EXCEPTION 'refused for the test'; END IF;
         RETURN NEW;
       END $$`,
    );
    await server.db.query(
      `CREATE TRIGGER refuse_test_alert BEFORE INSERT ON device_alerts
         FOR EACH ROW EXECUTE FUNCTION refuse_test_alert()`,
    );
    // Also when the embedded database stores alerts as a replica (no reference checks).
    await server.db.query('ALTER TABLE device_alerts ENABLE ALWAYS TRIGGER refuse_test_alert');
    try {
      const mixed = await Promise.all(
        devices.map(({ agent, id }) => send(agent, 2, [alert(id, 3)])),
      );
      expect(mixed.map((a) => a.statusCode === 200)).toEqual(devices.map((_, i) => i > 0));
    } finally {
      await server.db.query('DROP TRIGGER refuse_test_alert ON device_alerts');
      await server.db.query('DROP FUNCTION refuse_test_alert()');
    }
    const [ack] = await server.db.query<{ ack: string }>(
      'SELECT alerts_ack::bigint AS ack FROM devices WHERE id = $1',
      [first.id],
    );
    expect(Number(ack?.ack)).toBe(1);
    expect((await stored()).map((row) => row.alerts)).toEqual(
      devices.map((_, i) => (i > 0 ? 3 : 2)),
    );
    // Sent again, it is stored.
    expect((await send(first.agent, 2, [alert(first.id, 3)])).json()).toEqual({
      ack: 2,
      rejected: [],
    });
  });

  it('still serves a device whose stored digest matches no render, rendered for it alone', async () => {
    const [device] = devices;
    if (!device) throw new Error('no devices');
    const expected = (await pull(server.app, device.agent)).body;
    await server.db.query(`UPDATE devices SET config_sha256 = '' WHERE id = $1`, [device.id]);
    const served = await pull(server.app, device.agent);
    expect(served.body).toEqual(expected);
  });

  it('pushes only to the devices a notice names, reading them in one query', async () => {
    const streams = await Promise.all(devices.map(({ agent }) => versionStream(server.app, agent)));
    const other = await asConsole('POST', '/devices/', { name: 'bystander', password: PASSWORD });
    const login = await api(server.app, {
      method: 'POST',
      url: '/agent/login',
      payload: { device_id: other.json<{ id: number }>().id, password: PASSWORD, protocol: 1 },
    });
    const bystander = await versionStream(server.app, {
      authorization: `Bearer ${login.json<{ access_token: string }>().access_token}`,
    });
    try {
      expect(await bystander.next()).not.toBeNull();
      const initial = await Promise.all(streams.map((s) => s.next()));
      expect(initial.every((event) => event !== null)).toBe(true);
      const [first] = devices;
      if (!first) throw new Error('no devices');
      // Named: only that device's stream looks again (a flush makes it speak).
      await server.db.query('UPDATE devices SET flush_requested = true WHERE id = $1', [first.id]);
      const named = countQueries(server, REMOTES_SQL);
      await server.db.transaction((tx) => notifyDevices(tx, 1, [first.id]));
      expect(await streams[0]?.next()).not.toBeNull();
      const others = await Promise.all(streams.slice(1).map((s) => s.next(300)));
      expect(others).toEqual([null, null, null]);
      const namedQueries = named.stop();
      expect(namedQueries.total).toBe(1);
      expect(namedQueries.params).toEqual([[[first.id]]]);
      await server.db.query('UPDATE devices SET flush_requested = false WHERE id = $1', [first.id]);

      // A policy save names the devices that run it: one query for their streams, none for
      // the stream of a device of the organization that runs another policy.
      const fleetWide = countQueries(server, REMOTES_SQL);
      expect((await suppress('10.9.0.3')).statusCode).toBe(200);
      const pushed = await Promise.all(streams.map((s) => s.next()));
      expect(pushed.every((event) => event !== null)).toBe(true);
      expect(await bystander.next(300)).toBeNull();
      const fleetQueries = fleetWide.stop();
      expect(fleetQueries.total).toBe(1);
      expect(fleetQueries.params).toEqual([[devices.map((d) => d.id)]]);
    } finally {
      for (const stream of streams) stream.close();
      bystander.close();
    }
  });
});

/** Counts the transactions the server's database runs until `stop()`. */
function countTransactions(server: TestServer) {
  const db = server.db;
  const original = db.transaction.bind(db);
  let count = 0;
  db.transaction = (fn) => {
    count += 1;
    return original(fn);
  };
  return {
    stop() {
      db.transaction = original;
      return count;
    },
  };
}

/** Counts the queries matching `pattern` that the server's database runs until `stop()`. */
function countQueries(server: TestServer, pattern: RegExp) {
  const db = server.db;
  const original = db.query.bind(db);
  const seen: { sql: string; params: unknown }[] = [];
  db.query = (statement, params) => {
    const sql = statementText(statement);
    if (pattern.test(sql)) seen.push({ sql, params });
    return original(statement, params);
  };
  return {
    stop() {
      db.query = original;
      return {
        total: seen.length,
        policy: seen.filter((q) => q.sql.includes('policy_groups')).length,
        config: seen.filter((q) => q.sql.includes('device_profiles')).length,
        stored: seen.filter((q) => q.sql.includes('rendered_contents')).length,
        params: seen.map((q) => q.params),
      };
    },
  };
}
