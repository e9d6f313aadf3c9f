import type { AlertDetail } from '@palisade/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { signInOtherOrganization } from '../../test/fixtures.js';

type Headers = { authorization: string };
type Detail = z.infer<typeof AlertDetail>;

/** One alert's star and comments, from its row or drawer (issue 19 item 3). */
describe('starring and commenting one alert', () => {
  let server: TestServer;
  let admin: Headers;
  let viewer: Headers;
  let operator: Headers;
  let secondOperator: Headers;
  let other: Headers;
  let alertId: number;

  const detail = async (headers: Headers = admin) =>
    (await api(server.app, { method: 'GET', url: `/alerts/${alertId}`, headers })).json<Detail>();
  const star = (starred: boolean, headers: Headers = admin, id = alertId) =>
    api(server.app, {
      method: 'PUT',
      url: `/alerts/${id}/star`,
      headers,
      payload: { starred },
    });
  const comment = (body: unknown, headers: Headers = admin, id = alertId) =>
    api(server.app, {
      method: 'POST',
      url: `/alerts/${id}/comments`,
      headers,
      payload: { body },
    });

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    await api(server.app, {
      method: 'POST',
      url: '/users/',
      headers: admin,
      payload: { email: 'v@example.com', password: 'Viewer#2026', role: 'Viewer' },
    });
    viewer = await signIn(server.app, 'v@example.com', 'Viewer#2026');
    for (const email of ['op1@example.com', 'op2@example.com'])
      await api(server.app, {
        method: 'POST',
        url: '/users/',
        headers: admin,
        payload: { email, password: 'Operator#2026', role: 'Operator' },
      });
    operator = await signIn(server.app, 'op1@example.com', 'Operator#2026');
    secondOperator = await signIn(server.app, 'op2@example.com', 'Operator#2026');
    other = await signInOtherOrganization(server.app);
    const [device] = await server.db.query<{ id: number; org_id: number }>(
      `INSERT INTO devices (org_id, name, password_hash)
       SELECT id, 'triage', 'x' FROM organizations ORDER BY id LIMIT 1 RETURNING id, org_id`,
    );
    const [alert] = await server.db.query<{ id: string }>(
      `INSERT INTO device_alerts (org_id, device_id, time, sid, msg, severity, event)
       VALUES ($1, $2, now(), 2000001, 'ET one', 2, '{}'::jsonb) RETURNING id::text`,
      [device?.org_id, device?.id],
    );
    alertId = Number(alert?.id);
  }, 120_000);
  afterAll(() => server.close());

  it('stars and unstars, audited, for Operators and Administrators only', async () => {
    const starred = await star(true);
    expect(starred.statusCode, starred.body).toBe(200);
    expect(starred.json()).toMatchObject({ starred: true });
    expect((await detail()).starred).toBe(true);
    const list = await api(server.app, {
      method: 'GET',
      url: '/alerts/?starred=true',
      headers: admin,
    });
    expect(list.json<{ data: { id: number }[] }>().data.map((a) => a.id)).toEqual([alertId]);

    expect((await star(false, viewer)).statusCode).toBe(403);
    expect((await star(false, other)).statusCode).toBe(404);
    expect((await star(true, admin, 999_999_999)).statusCode).toBe(404);
    expect((await detail()).starred).toBe(true);

    expect((await star(false)).statusCode).toBe(200);
    expect((await detail()).starred).toBe(false);
    const records = await server.db.query<{ object_id: string; after: unknown }>(
      `SELECT object_id, after FROM audit_log WHERE object_type = 'alert' AND action = 'star' ORDER BY id`,
    );
    expect(records).toEqual([
      { object_id: String(alertId), after: { starred: true } },
      { object_id: String(alertId), after: { starred: false } },
    ]);
  });

  it('adds a comment, answered with the comments, shown in the detail', async () => {
    const added = await comment('  seen this scanner before  ');
    expect(added.statusCode, added.body).toBe(201);
    const { data } = added.json<{ data: Detail['comments'] }>();
    expect(data.map(({ body, author }) => ({ body, author }))).toEqual([
      { body: 'seen this scanner before', author: ADMIN_EMAIL },
    ]);
    expect(Number.isNaN(Date.parse(data[0]?.created_at ?? ''))).toBe(false);
    await comment('ticket 42');
    expect((await detail(viewer)).comments.map((c) => c.body)).toEqual([
      'seen this scanner before',
      'ticket 42',
    ]);
    const records = await server.db.query<{ after: unknown }>(
      `SELECT after FROM audit_log WHERE object_type = 'alert' AND action = 'comment' ORDER BY id`,
    );
    expect(records.at(-1)).toEqual({ after: { comment: 'ticket 42' } });

    for (const body of ['', '   ', 'x'.repeat(2001), 42])
      expect((await comment(body)).statusCode).toBe(422);
    expect((await comment('no', viewer)).statusCode).toBe(403);
    expect((await comment('no', other)).statusCode).toBe(404);
    expect((await comment('no', admin, 999_999_999)).statusCode).toBe(404);
    expect((await detail()).comments).toHaveLength(2);
  });

  it('lets its author or an Administrator correct or delete a comment, audited', async () => {
    const change = (method: 'PUT' | 'DELETE', id: number, headers: Headers, body?: unknown) =>
      api(server.app, {
        method,
        url: `/alerts/comments/${id}`,
        headers,
        ...(body === undefined ? {} : { payload: { body } }),
      });
    const added = await comment('scanner from the lab', operator);
    expect(added.statusCode, added.body).toBe(201);
    const mine = added.json<{ data: Detail['comments'] }>().data.at(-1);
    if (mine === undefined) throw new Error('no comment');
    expect(mine).toMatchObject({ body: 'scanner from the lab', edited_at: null });
    const ownerId = mine.author_id;
    expect(ownerId).not.toBeNull();

    // Someone else's comment: another Operator and a Viewer are refused, other orgs see nothing.
    expect((await change('PUT', mine.id, secondOperator, 'not mine')).statusCode).toBe(403);
    expect((await change('DELETE', mine.id, secondOperator)).statusCode).toBe(403);
    expect((await change('PUT', mine.id, viewer, 'no')).statusCode).toBe(403);
    expect((await change('PUT', mine.id, other, 'no')).statusCode).toBe(404);
    expect((await change('DELETE', mine.id, other)).statusCode).toBe(404);
    expect((await change('PUT', mine.id, operator, '  ')).statusCode).toBe(422);
    expect((await change('PUT', 999_999_999, operator, 'x')).statusCode).toBe(404);

    const edited = await change('PUT', mine.id, operator, 'scanner from the lab (ticket 43)');
    expect(edited.statusCode, edited.body).toBe(200);
    const after = edited.json<{ data: Detail['comments'] }>().data.find((c) => c.id === mine.id);
    expect(after).toMatchObject({
      body: 'scanner from the lab (ticket 43)',
      author_id: ownerId,
      created_at: mine.created_at,
    });
    expect(Number.isNaN(Date.parse(after?.edited_at ?? ''))).toBe(false);
    const [record] = await server.db.query<{ before: unknown; after: unknown }>(
      `SELECT before, after FROM audit_log WHERE object_type = 'alert_comment' AND action = 'update'
        ORDER BY id DESC LIMIT 1`,
    );
    expect(record).toEqual({
      before: { comment: 'scanner from the lab' },
      after: { comment: 'scanner from the lab (ticket 43)' },
    });

    // An Administrator moderates: deletes an Operator's comment; the others stay.
    const before = (await detail()).comments.length;
    const removed = await change('DELETE', mine.id, admin);
    expect(removed.statusCode, removed.body).toBe(200);
    const left = removed.json<{ data: Detail['comments'] }>().data;
    expect(left).toHaveLength(before - 1);
    expect(left.some((c) => c.id === mine.id)).toBe(false);
    expect((await change('DELETE', mine.id, admin)).statusCode).toBe(404);
    const deletions = await server.db.query<{ object_id: string; before: unknown }>(
      `SELECT object_id, before FROM audit_log
        WHERE object_type = 'alert_comment' AND action = 'delete'`,
    );
    expect(deletions).toEqual([
      { object_id: String(mine.id), before: { comment: 'scanner from the lab (ticket 43)' } },
    ]);
  });
});
