import type { AlertView } from '@palisade/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const PASSWORD = 'Member#2026';

/**
 * Saved alert views (issue 19 item 3): each user's own, shared ones listed to the whole
 * organization, changed by their owner only, every change audited.
 */
describe('saved alert views', () => {
  let server: TestServer;
  let admin: Headers;
  let operator: Headers;
  let viewer: Headers;
  let viewer2: Headers;
  let other: Headers;

  const call = (method: Method, url: string, headers: Headers, payload?: object) =>
    api(server.app, { method, url, headers, ...(payload === undefined ? {} : { payload }) });
  const create = async (headers: Headers, payload: object) => {
    const response = await call('POST', '/alertviews/', headers, payload);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<AlertView>();
  };
  const list = async (headers: Headers, query = '') => {
    const response = await call('GET', `/alertviews/${query}`, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: AlertView[]; recordsTotal: number }>();
  };
  const names = async (headers: Headers, query = '') =>
    (await list(headers, query)).data.map((v) => v.name);
  const member = async (role: string, email: string) => {
    const created = await call('POST', '/users/', admin, { email, password: PASSWORD, role });
    expect(created.statusCode, created.body).toBe(201);
    return signIn(server.app, email, PASSWORD);
  };
  const audited = () =>
    server.db.query<{ action: string; object_id: string; before: unknown; after: unknown }>(
      `SELECT action, object_id, before, after FROM audit_log
        WHERE object_type = 'alert_view' ORDER BY id`,
    );

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    operator = await member('Operator', 'operator@example.com');
    viewer = await member('Viewer', 'viewer@example.com');
    viewer2 = await member('Viewer', 'viewer2@example.com');
    other = await signInOtherOrganization(server.app);
  }, 120_000);
  afterAll(() => server.close());

  it('lets a Viewer keep views of their own, seen by no one else', async () => {
    const view = await create(viewer, {
      name: 'My high severity',
      filters: { severity: 1, range: '24h', acknowledged: 'false', starred: 'true' },
    });
    expect(view).toMatchObject({
      name: 'My high severity',
      filters: { severity: 1, range: '24h', acknowledged: 'false', starred: 'true' },
      shared: false,
      owner: 'viewer@example.com',
      can_edit: true,
    });
    expect(await names(viewer)).toContain('My high severity');
    expect(await names(viewer2)).not.toContain('My high severity');
    expect(await names(admin)).not.toContain('My high severity');
    expect(await names(other)).toEqual([]);

    const renamed = await call('PUT', `/alertviews/${view.id}`, viewer, { name: 'Mine' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<AlertView>()).toMatchObject({ name: 'Mine', filters: view.filters });
    // Another member, or another organization, cannot find it at all.
    for (const headers of [viewer2, operator, admin, other]) {
      expect((await call('PUT', `/alertviews/${view.id}`, headers, { name: 'x' })).statusCode).toBe(
        404,
      );
      expect((await call('DELETE', `/alertviews/${view.id}`, headers)).statusCode).toBe(404);
    }
    expect((await call('DELETE', `/alertviews/${view.id}`, viewer)).statusCode).toBe(200);
    expect(await names(viewer)).not.toContain('Mine');
  });

  it('lists a shared view to the whole organization, changed by its owner only', async () => {
    // Sharing writes into everyone's list: a Viewer may not, an Operator may.
    const refused = await call('POST', '/alertviews/', viewer, { name: 'Team', shared: true });
    expect(refused.statusCode).toBe(403);
    const team = await create(operator, {
      name: 'Team scanners',
      filters: { src_ip: '203.0.113.7', not_proto: 'UDP' },
      shared: true,
    });
    for (const headers of [viewer, viewer2, admin]) {
      const seen = (await list(headers)).data.find((v) => v.id === team.id);
      expect(seen).toMatchObject({ shared: true, owner: 'operator@example.com', can_edit: false });
    }
    expect((await list(operator)).data.find((v) => v.id === team.id)?.can_edit).toBe(true);
    expect(await names(other)).not.toContain('Team scanners');

    // Seen but not theirs: 403, even for an Administrator; another organization: 404.
    for (const headers of [viewer, admin]) {
      const put = await call('PUT', `/alertviews/${team.id}`, headers, { name: 'Taken over' });
      expect(put.statusCode).toBe(403);
      expect(put.json<{ code: string }>().code).toBe('forbidden');
      expect((await call('DELETE', `/alertviews/${team.id}`, headers)).statusCode).toBe(403);
    }
    expect((await call('PUT', `/alertviews/${team.id}`, other, { name: 'x' })).statusCode).toBe(
      404,
    );

    // Its owner unshares it: it leaves the others' lists.
    const unshared = await call('PUT', `/alertviews/${team.id}`, operator, { shared: false });
    expect(unshared.json<AlertView>().shared).toBe(false);
    expect(await names(viewer)).not.toContain('Team scanners');
    // A Viewer may not share a view later either, but may unshare one (a demoted owner).
    const own = await create(viewer, { name: 'Later' });
    expect((await call('PUT', `/alertviews/${own.id}`, viewer, { shared: true })).statusCode).toBe(
      403,
    );
    expect((await call('PUT', `/alertviews/${own.id}`, viewer, { shared: false })).statusCode).toBe(
      200,
    );
  });

  it('refuses what is not a view', async () => {
    const bad = async (payload: object, status = 422) => {
      const response = await call('POST', '/alertviews/', operator, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
    };
    await bad({});
    await bad({ name: '   ' });
    await bad({ name: 'x'.repeat(101) });
    await bad({ name: 'bad severity', filters: { severity: 0 } });
    await bad({ name: 'bad range', filters: { range: '2h' } });
    await bad({ name: 'both', filters: { range: '1h', since: '2026-01-01T00:00:00Z' } });
    await bad({ name: 'bad port', filters: { src_port: 70000 } });
    await bad({ name: 'bad shared', shared: 'yes' });
    expect((await call('PUT', '/alertviews/abc', operator, { name: 'x' })).statusCode).toBe(422);
    expect((await call('PUT', '/alertviews/999999', operator, { name: 'x' })).statusCode).toBe(404);

    // One name per owner, whatever its case; another user may use it.
    await create(operator, { name: 'Duplicate' });
    await bad({ name: 'duplicate' }, 409);
    await create(admin, { name: 'Duplicate' });
    const second = await create(operator, { name: 'Second' });
    const clash = await call('PUT', `/alertviews/${second.id}`, operator, { name: 'DUPLICATE' });
    expect(clash.statusCode).toBe(409);

    // Unknown filter fields are dropped, not stored.
    const stripped = await create(operator, {
      name: 'Stripped',
      filters: { severity: 2, secret: 'x' },
    });
    expect(stripped.filters).toEqual({ severity: 2 });
  });

  it('keeps at most so many views per user', async () => {
    const headers = await member('Viewer', 'hoarder@example.com');
    await server.db.query(
      `INSERT INTO alert_views (org_id, user_id, name)
       SELECT u.org_id, u.id, 'view ' || n FROM users u, generate_series(1, 200) n
        WHERE u.email = 'hoarder@example.com'`,
    );
    const refused = await call('POST', '/alertviews/', headers, { name: 'one more' });
    expect(refused.statusCode).toBe(409);
    expect((await list(headers, '?limit=5')).recordsTotal).toBe(200);
  });

  it('sorts, filters and searches from a whitelist', async () => {
    const mine = await create(viewer2, { name: 'b second' });
    await create(viewer2, { name: 'A first' });
    await create(admin, { name: 'shared by admin', shared: true });
    expect(await names(viewer2, '?filter=own:true')).toEqual(['A first', 'b second']);
    expect(await names(viewer2, '?filter=own:true&sortBy=name&sortDesc=true')).toEqual([
      'b second',
      'A first',
    ]);
    expect(await names(viewer2, '?filter=shared:true')).toContain('shared by admin');
    expect(await names(viewer2, '?filter=shared:true')).not.toContain('b second');
    expect(await names(viewer2, '?filter=first')).toEqual(['A first']);
    const page = await list(viewer2, '?filter=own:true&limit=1&offset=1');
    expect(page).toMatchObject({ recordsTotal: 2, data: [{ id: mine.id }] });
    for (const query of ['?sortBy=user_id', '?filter=user_id:1', '?filter=own:maybe']) {
      const response = await call('GET', `/alertviews/${query}`, viewer2);
      expect(response.statusCode, query).toBe(422);
    }
  });

  it('records every change in the audit log, and no failed one', async () => {
    const view = await create(operator, { name: 'Audited', filters: { proto: 'TCP' } });
    await call('PUT', `/alertviews/${view.id}`, operator, { filters: { proto: 'UDP' } });
    await call('PUT', `/alertviews/${view.id}`, viewer, { name: 'not theirs' });
    await call('DELETE', `/alertviews/${view.id}`, operator);
    const records = (await audited()).filter((r) => r.object_id === String(view.id));
    expect(records).toEqual([
      {
        action: 'create',
        object_id: String(view.id),
        before: null,
        after: { name: 'Audited', filters: { proto: 'TCP' }, shared: false },
      },
      {
        action: 'update',
        object_id: String(view.id),
        before: { filters: { proto: 'TCP' } },
        after: { filters: { proto: 'UDP' } },
      },
      {
        action: 'delete',
        object_id: String(view.id),
        before: { name: 'Audited', filters: { proto: 'UDP' }, shared: false },
        after: null,
      },
    ]);
  });

  it("goes with its owner when the owner's account is deleted", async () => {
    const headers = await member('Viewer', 'leaver@example.com');
    const view = await create(headers, { name: 'Leaving' });
    const [user] = await server.db.query<{ id: number }>(
      `SELECT id FROM users WHERE email = 'leaver@example.com'`,
    );
    expect((await call('DELETE', `/users/${user?.id ?? 0}`, admin)).statusCode).toBe(200);
    const rows = await server.db.query('SELECT id FROM alert_views WHERE id = $1', [view.id]);
    expect(rows).toEqual([]);
  });
});
