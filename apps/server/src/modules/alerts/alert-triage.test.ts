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

type Headers = { authorization: string };
type Detail = z.infer<typeof AlertDetail>;

/** One alert's star and comments, from its row or drawer (issue 19 item 3). */
describe('starring and commenting one alert', () => {
  let server: TestServer;
  let admin: Headers;
  let viewer: Headers;
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
    await api(server.app, {
      method: 'POST',
      url: '/users/open',
      payload: { email: 'o@b.example', password: 'Other#2026', organization: 'B' },
    });
    other = await signIn(server.app, 'o@b.example', 'Other#2026');
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
});
