import { UNSTORABLE_TEXT } from '@palisade/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../test/harness.js';
import { enrolDevice } from '../test/fixtures.js';
import { databaseInputError } from './database-input-errors.js';

type Headers = { authorization: string };

describe('bad input is a 4xx that names the field', () => {
  let server: TestServer;
  let admin: Headers;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
  });
  afterAll(() => server.close());

  it('refuses NUL and unpaired surrogates in a body with 422 {field, msg}', async () => {
    for (const name of ['sensor\u0000', 'sensor\uD800']) {
      const response = await api(server.app, {
        method: 'POST',
        url: '/devices/',
        headers: admin,
        payload: { name, password: 'device-secret-1234' },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        msg: `body.name: ${UNSTORABLE_TEXT}`,
        code: 'validation_failed',
        details: [{ field: 'body.name', msg: UNSTORABLE_TEXT }],
      });
    }
  });

  it('refuses ids past PostgreSQL integer in paths, queries and bodies', async () => {
    const path = await api(server.app, {
      method: 'GET',
      url: '/devices/2147483648',
      headers: admin,
    });
    expect(path.statusCode).toBe(422);
    expect(path.json<{ details: { field: string }[] }>().details[0]?.field).toBe('params.id');
    const query = await api(server.app, {
      method: 'GET',
      url: '/alerts/?device_id=2147483648',
      headers: admin,
    });
    expect(query.json<{ details: { field: string }[] }>().details[0]?.field).toBe(
      'querystring.device_id',
    );
    const body = await api(server.app, {
      method: 'POST',
      url: '/policies/',
      headers: admin,
      payload: { name: 'big', group_ids: [2 ** 31] },
    });
    expect(body.statusCode).toBe(422);
    expect(body.json<{ details: { field: string }[] }>().details[0]?.field).toBe(
      'body.group_ids.0',
    );
    const found = await api(server.app, {
      method: 'GET',
      url: '/devices/2147483647',
      headers: admin,
    });
    expect(found.statusCode).toBe(404);
  });

  it('refuses NUL in the filter and Object.prototype names in sortBy', async () => {
    for (const query of [
      'filter=a%00b',
      'filter=name:%00',
      'sortBy=constructor',
      'sortBy=__proto__',
    ]) {
      const response = await api(server.app, {
        method: 'GET',
        url: `/devices/?${query}`,
        headers: admin,
      });
      expect(response.statusCode, query).toBe(422);
    }
  });

  it('answers a URL that does not decode, or a too long id, in the error shape', async () => {
    const undecodable = await api(server.app, {
      method: 'GET',
      url: '/devices/%FF',
      headers: admin,
    });
    expect(undecodable.statusCode).toBe(400);
    expect(undecodable.json()).toMatchObject({ code: 'bad_request' });
    // (A GET falls through to the console's catch-all route instead: 404.)
    const long = await api(server.app, {
      method: 'PUT',
      url: `/devices/${'1'.repeat(200)}`,
      headers: admin,
    });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toMatchObject({ code: 'bad_request' });
  });

  it('maps what PostgreSQL refuses of an input to 4xx, as a safety net', async () => {
    const refusal = async (sql: string, params: unknown[] = []) => {
      const error: unknown = await server.db.query(sql, params as string[]).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      return databaseInputError(error);
    };
    expect(await refusal(`SELECT '"\\u0000"'::jsonb`)).toMatchObject({ status: 422 });
    expect(await refusal('SELECT $1::text', ['a\u0000b'])).toMatchObject({ status: 422 });
    expect(await refusal('SELECT 2147483648::int4')).toMatchObject({ status: 422 });
    expect(await refusal(`SELECT 'abc'::int`)).toMatchObject({ status: 422 });
    expect(await refusal(`SELECT 'a' ~ '('`)).toMatchObject({
      status: 422,
      msg: 'Not a valid regular expression',
    });
    expect(databaseInputError(new Error('connection refused'))).toBeUndefined();
    expect(databaseInputError({ code: 'ECONNRESET' })).toBeUndefined();
  });

  it('answers 409 when a policy devices run is deleted', async () => {
    const policy = await api(server.app, {
      method: 'POST',
      url: '/policies/',
      headers: admin,
      payload: { name: 'in use' },
    });
    const policyId = policy.json<{ id: number }>().id;
    const device = await api(server.app, {
      method: 'POST',
      url: '/devices/',
      headers: admin,
      payload: { name: 'runs it', password: 'device-secret-1234', policy_id: policyId },
    });
    expect(device.statusCode).toBe(201);
    const removed = await api(server.app, {
      method: 'DELETE',
      url: `/policies/${policyId}`,
      headers: admin,
    });
    expect(removed.statusCode).toBe(409);
    expect(removed.json()).toMatchObject({
      code: 'conflict',
      msg: "Policy 'in use' is used by 1 device(s)",
    });
  });

  it('answers a call the database ended for a concurrent one 503, to be retried', async () => {
    const { id: deviceId, agent } = await enrolDevice(server.app, admin, { name: 'deadlocked' });
    const send = () =>
      api(server.app, {
        method: 'POST',
        url: '/agent/alerts',
        headers: agent,
        payload: {
          seq: 1,
          events: [
            {
              timestamp: new Date().toISOString(),
              event_type: 'alert',
              src_ip: '10.0.0.1',
              dest_ip: '10.0.0.2',
              proto: 'TCP',
              alert: { gid: 1, signature_id: 2000001, rev: 1, signature: 'test', severity: 2 },
            },
          ],
        },
      });
    // As PostgreSQL ends one of two transactions that wait on each other.
    await server.db.query(
      `CREATE FUNCTION deadlock_for_test() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'deadlock detected' USING ERRCODE = '40P01'; END $$`,
    );
    await server.db.query(
      `CREATE TRIGGER deadlock_for_test BEFORE INSERT ON device_alerts
         FOR EACH ROW EXECUTE FUNCTION deadlock_for_test()`,
    );
    await server.db.query('ALTER TABLE device_alerts ENABLE ALWAYS TRIGGER deadlock_for_test');
    let refused;
    try {
      refused = await send();
    } finally {
      await server.db.query('DROP TRIGGER deadlock_for_test ON device_alerts');
      await server.db.query('DROP FUNCTION deadlock_for_test()');
    }
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toEqual({
      code: 'database_busy',
      msg: 'The database was busy with a conflicting change; try again.',
    });
    // Rolled back whole: the batch is not acknowledged, and sent again it is stored.
    const again = await send();
    expect(again.json()).toEqual({ ack: 1, rejected: [] });
    const [stored] = await server.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM device_alerts WHERE device_id = $1',
      [deviceId],
    );
    expect(stored?.n).toBe(1);
  });
});
