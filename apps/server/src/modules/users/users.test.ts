import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

type Headers = { authorization: string };
interface UserBody {
  id: number;
  email: string;
  role: string;
  organization: string;
}
interface Page {
  data: UserBody[];
  recordsTotal: number;
}

describe('user management', () => {
  let server: TestServer;
  let admin: Headers;

  const create = (headers: Headers, payload: Record<string, unknown>) =>
    api(server.app, { method: 'POST', url: '/users/', headers, payload });
  const list = (headers: Headers, query = '') =>
    api(server.app, { url: `/users/${query}`, headers });

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    for (const [email, role, first_name] of [
      ['zoe@example.com', 'Operator', 'Zoe'],
      ['bob@example.com', 'Viewer', 'Bob'],
      ['carol@example.com', 'Operator', 'Carol'],
    ] as const) {
      const response = await create(admin, { email, password: 'Member#2026', role, first_name });
      expect(response.statusCode).toBe(201);
    }
  });
  afterAll(() => server.close());

  it('lists the organization page by page with recordsTotal', async () => {
    const page = (await list(admin, '?limit=2&offset=0&sortBy=email&sortDesc=false')).json<Page>();
    expect(page.recordsTotal).toBe(4);
    expect(page.data.map((u) => u.email)).toEqual(['admin@example.com', 'bob@example.com']);
    const next = (await list(admin, '?limit=2&offset=2&sortBy=email&sortDesc=false')).json<Page>();
    expect(next.data.map((u) => u.email)).toEqual(['carol@example.com', 'zoe@example.com']);
  });

  it('sorts by comma-joined fields and directions', async () => {
    const page = (await list(admin, '?sortBy=role,email&sortDesc=false,true')).json<Page>();
    expect(page.data.map((u) => u.email)).toEqual([
      'admin@example.com',
      'zoe@example.com',
      'carol@example.com',
      'bob@example.com',
    ]);
  });

  it('filters by field and searches free text', async () => {
    const operators = (await list(admin, '?filter=role:Operator')).json<Page>();
    expect(operators.data.map((u) => u.email).sort()).toEqual([
      'carol@example.com',
      'zoe@example.com',
    ]);
    const search = (await list(admin, '?filter=car')).json<Page>();
    expect(search).toMatchObject({ recordsTotal: 1, data: [{ email: 'carol@example.com' }] });
    const both = (
      await list(admin, `?filter=${encodeURIComponent('role:Operator,zo')}`)
    ).json<Page>();
    expect(both.data.map((u) => u.email)).toEqual(['zoe@example.com']);
  });

  it('refuses unknown sort and filter fields with 422 naming them, never SQL', async () => {
    const sort = await list(admin, '?sortBy=password_hash');
    expect(sort.statusCode).toBe(422);
    expect(sort.json<{ msg: string }>().msg).toContain("'password_hash'");
    const injected = await list(admin, `?sortBy=${encodeURIComponent('email;DROP TABLE users')}`);
    expect(injected.statusCode).toBe(422);
    const filter = await list(admin, '?filter=password_hash:x');
    expect(filter.statusCode).toBe(422);
    expect((await list(admin, '?limit=-1')).statusCode).toBe(422);
    expect((await list(admin, '?sortDesc=maybe')).statusCode).toBe(422);
    expect((await list(admin)).json<Page>().recordsTotal).toBe(4);
  });

  it('creates, updates and deletes, and never returns the password hash', async () => {
    const created = await create(admin, {
      email: 'dave@example.com',
      password: 'Member#2026',
      role: 'Viewer',
    });
    const { id } = created.json<UserBody>();
    expect(created.body).not.toContain('password');
    const updated = await api(server.app, {
      method: 'PUT',
      url: `/users/${id}`,
      headers: admin,
      payload: { role: 'Operator', last_name: 'Dee' },
    });
    expect(updated.json()).toMatchObject({
      id,
      role: 'Operator',
      last_name: 'Dee',
      email: 'dave@example.com',
    });
    expect(
      (await api(server.app, { method: 'DELETE', url: `/users/${id}`, headers: admin })).json(),
    ).toEqual({
      msg: 'User deleted',
    });
    expect((await list(admin, '?filter=email:dave@example.com')).json<Page>().recordsTotal).toBe(0);
  });

  it('reads one user by id, and filters the list by id', async () => {
    const [zoe] = (await list(admin, '?filter=email:zoe@example.com')).json<Page>().data;
    const one = await api(server.app, { url: `/users/${zoe?.id}`, headers: admin });
    expect(one.json()).toMatchObject({ id: zoe?.id, email: 'zoe@example.com', role: 'Operator' });
    expect(
      (await list(admin, `?filter=id:${zoe?.id}`)).json<Page>().data.map((u) => u.email),
    ).toEqual(['zoe@example.com']);
    expect((await api(server.app, { url: '/users/999999', headers: admin })).statusCode).toBe(404);
    const operator = await signIn(server.app, 'zoe@example.com', 'Member#2026');
    expect(
      (await api(server.app, { url: `/users/${zoe?.id}`, headers: operator })).statusCode,
    ).toBe(403);
  });

  it('refuses a taken e-mail with 409 and bad payloads with 422 field details', async () => {
    const taken = await create(admin, { email: 'ZOE@example.com', password: 'Member#2026' });
    expect(taken.statusCode).toBe(409);
    const bad = await create(admin, { email: 'x', password: 'Member#2026', role: 'Overlord' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({
      code: 'validation_failed',
      details: expect.arrayContaining([
        { field: 'body.email', msg: 'Not valid' },
        expect.objectContaining({ field: 'body.role' }),
      ]) as unknown,
    });
    const notJson = await api(server.app, {
      method: 'POST',
      url: '/users/',
      headers: { ...admin, 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json<{ msg: string }>().msg).toBeTruthy();
  });

  it('keeps at least one active Administrator and refuses deleting oneself', async () => {
    const me = (await api(server.app, { url: '/users/me', headers: admin })).json<UserBody>();
    const demote = await api(server.app, {
      method: 'PUT',
      url: `/users/${me.id}`,
      headers: admin,
      payload: { role: 'Viewer' },
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toMatchObject({
      msg: 'An organization needs at least one active Administrator',
    });
    const self = await api(server.app, {
      method: 'DELETE',
      url: `/users/${me.id}`,
      headers: admin,
    });
    expect(self.statusCode).toBe(409);
  });

  it('refuses user management to Operators and Viewers (403) but lets them edit themselves', async () => {
    const operator = await signIn(server.app, 'zoe@example.com', 'Member#2026');
    const viewer = await signIn(server.app, 'bob@example.com', 'Member#2026');
    const bob = (await list(admin, '?filter=email:bob@example.com')).json<Page>().data[0];
    for (const headers of [operator, viewer]) {
      expect((await list(headers)).statusCode).toBe(403);
      expect(
        (await create(headers, { email: 'x@example.com', password: 'Member#2026' })).statusCode,
      ).toBe(403);
      const put = await api(server.app, {
        method: 'PUT',
        url: `/users/${bob?.id}`,
        headers,
        payload: { role: 'Administrator' },
      });
      expect(put.statusCode).toBe(403);
      expect(
        (await api(server.app, { method: 'DELETE', url: `/users/${bob?.id}`, headers })).statusCode,
      ).toBe(403);
    }
    const renamed = await api(server.app, {
      method: 'PUT',
      url: '/users/me',
      headers: operator,
      payload: { first_name: 'Zoé', role: 'Administrator' },
    });
    expect(renamed.json()).toMatchObject({ first_name: 'Zoé', role: 'Operator' });
  });
});

describe('organizations are walled off', () => {
  let server: TestServer;
  let adminA: Headers;
  let adminB: Headers;
  let userOfA: number;

  beforeAll(async () => {
    server = await startTestServer();
    adminA = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const created = await api(server.app, {
      method: 'POST',
      url: '/users/',
      headers: adminA,
      payload: { email: 'member@a.example', password: 'Member#2026', role: 'Operator' },
    });
    userOfA = created.json<UserBody>().id;
    await api(server.app, {
      method: 'POST',
      url: '/users/open',
      payload: { email: 'boss@b.example', password: 'BossOfB#2026', organization: 'B Corp' },
    });
    adminB = await signIn(server.app, 'boss@b.example', 'BossOfB#2026');
  });
  afterAll(() => server.close());

  it("an Administrator of one organization neither sees nor touches another's users", async () => {
    const seen = (
      await api(server.app, { url: '/users/?limit=100', headers: adminB })
    ).json<Page>();
    expect(seen.data.map((u) => u.email)).toEqual(['boss@b.example']);
    expect((await api(server.app, { url: `/users/${userOfA}`, headers: adminB })).statusCode).toBe(
      404,
    );
    expect(
      (
        await api(server.app, {
          url: `/users/?filter=${encodeURIComponent('member')}`,
          headers: adminB,
        })
      ).json<Page>().recordsTotal,
    ).toBe(0);

    const put = await api(server.app, {
      method: 'PUT',
      url: `/users/${userOfA}`,
      headers: adminB,
      payload: { is_active: false },
    });
    expect(put.statusCode).toBe(404);
    const del = await api(server.app, {
      method: 'DELETE',
      url: `/users/${userOfA}`,
      headers: adminB,
    });
    expect(del.statusCode).toBe(404);

    const stillThere = (
      await api(server.app, { url: '/users/?filter=email:member@a.example', headers: adminA })
    ).json<Page>();
    expect(stillThere.data).toMatchObject([{ id: userOfA, organization: 'Default' }]);
  });

  it("a user created by an Administrator lands in that Administrator's organization", async () => {
    const created = await api(server.app, {
      method: 'POST',
      url: '/users/',
      headers: adminB,
      payload: { email: 'staff@b.example', password: 'Member#2026', organization_id: 1 },
    });
    expect(created.json()).toMatchObject({ organization: 'B Corp' });
  });
});

describe('two Administrators demoting each other at the same moment', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('leave the organization one active Administrator, every time', async () => {
    const [{ id: firstId } = { id: 0 }] = await server.db.query<{ id: number }>(
      'SELECT id FROM users WHERE email = $1',
      [ADMIN_EMAIL],
    );
    for (let trial = 0; trial < 5; trial += 1) {
      // Each trial starts from two active Administrators, whoever won the one before.
      await server.db.query(
        "UPDATE users SET role = 'Administrator', is_active = true WHERE id = $1",
        [firstId],
      );
      const first = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
      const email = `second-${trial}@example.com`;
      const created = await api(server.app, {
        method: 'POST',
        url: '/users/',
        headers: first,
        payload: { email, password: 'Second#2026', role: 'Administrator' },
      });
      const secondId = created.json<UserBody>().id;
      const second = await signIn(server.app, email, 'Second#2026');
      const demote = (headers: Headers, id: number, change: Record<string, unknown>) =>
        api(server.app, { method: 'PUT', url: `/users/${id}`, headers, payload: change });
      // Both at once, and each in two ways (a new role, deactivation) to widen the window.
      const statuses = (
        await Promise.all([
          demote(first, secondId, { role: 'Viewer' }),
          demote(second, firstId, { role: 'Operator' }),
          demote(first, secondId, { is_active: false }),
          demote(second, firstId, { is_active: false }),
        ])
      ).map((response) => response.statusCode);

      const [admins] = await server.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM users WHERE role = 'Administrator' AND is_active`,
      );
      expect(admins?.n, `trial ${trial}: ${statuses.join(', ')}`).toBe(1);
      // Every refusal is one a user can understand: last Administrator (409), no longer an
      // Administrator (403), or signed out by a deactivation that landed first (401).
      for (const status of statuses) expect([200, 401, 403, 409]).toContain(status);
      await server.db.query('DELETE FROM users WHERE id = $1', [secondId]);
    }
  });
});
