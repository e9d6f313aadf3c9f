import type { AuditPage, AuditRecord } from '@palisade/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  login,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { pruneAuditLog, recordAudit, serverActor } from './audit.service.js';

type Headers = { authorization: string };

describe('the audit log API', () => {
  let server: TestServer;
  let admin: Headers;
  let orgId: number;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const me = await api(server.app, { method: 'GET', url: '/users/me', headers: admin });
    orgId = me.json<{ organization_id: number }>().organization_id;
  }, 60_000);
  afterAll(() => server.close());

  const page = async (query: string, headers: Headers = admin) => {
    const response = await api(server.app, { method: 'GET', url: `/audit/?${query}`, headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<AuditPage>();
  };

  it('records a change with its before/after and finds it by object, action and actor', async () => {
    const created = await api(server.app, {
      method: 'POST',
      url: '/deviceconfigurationprofiles/',
      headers: admin,
      payload: { name: 'Branch', variables: { HOME_NET: '[10.0.0.0/8]' } },
    });
    const id = created.json<{ id: number }>().id;
    await api(server.app, {
      method: 'PUT',
      url: `/deviceconfigurationprofiles/${id}`,
      headers: admin,
      payload: { description: 'the branch office' },
    });
    const history = await page(`object_type=profile&object_id=${id}`);
    expect(history.data.map((r) => r.action)).toEqual(['update', 'create']);
    const [update] = history.data;
    expect(update).toMatchObject({
      actor_kind: 'user',
      actor_name: ADMIN_EMAIL,
      object_name: 'Branch',
      before: { description: '' },
      after: { description: 'the branch office' },
    });
    expect(update?.request_id).toBeTruthy();
    expect((await page('action=create&object_type=profile')).data).toHaveLength(1);
    expect((await page('actor=ADMIN@example')).data.length).toBeGreaterThan(0);
  });

  it('treats % and _ in the actor filter as themselves, not as wildcards', async () => {
    await server.db.transaction((tx) =>
      recordAudit(
        tx,
        { orgId, actor: serverActor('100% sure_job'), action: 'expire', object: nothing() },
        { orgId, actor: serverActor('100 sureXjob'), action: 'expire', object: nothing() },
      ),
    );
    const names = (await page('actor=%25%20sure_')).data.map((r) => r.actor_name);
    expect(names).toEqual(['100% sure_job']);
    expect((await page('actor=%25')).data.map((r) => r.actor_name)).toEqual(['100% sure_job']);
  });

  it('pages by keyset without gaps or repeats, newest first', async () => {
    const all = (await page('limit=1000')).data.map((r) => r.id);
    const seen: number[] = [];
    let before: number | null = null;
    do {
      const next: AuditPage = await page(`limit=2${before ? `&before_id=${before}` : ''}`);
      seen.push(...next.data.map((r) => r.id));
      before = next.next_before_id;
    } while (before !== null);
    expect(seen).toEqual(all);
    expect([...all].sort((a, b) => b - a)).toEqual(all);
  });

  it('reads a page in one statement, however deep', async () => {
    const first = await page('limit=2');
    const { statements } = await server.statements.during(() =>
      page(`limit=2&before_id=${first.next_before_id}&actor=a&object_type=profile`),
    );
    // The statement that checks the token, then the page.
    expect(statements).toHaveLength(2);
  });

  it('records sign-ins, and failed ones under the e-mail tried with no actor id', async () => {
    expect((await login(server.app, ADMIN_EMAIL, 'wrong password')).statusCode).toBe(400);
    expect((await login(server.app, 'nobody@example.com', 'wrong')).statusCode).toBe(400);
    const failed = (await page('action=sign_in_failed')).data;
    // Nobody has nobody@example.com: that attempt belongs to no organization's log.
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ actor_id: null, actor_name: ADMIN_EMAIL });
    expect((await page('action=sign_in')).data[0]?.actor_name).toBe(ADMIN_EMAIL);
  });

  it('records a password reset by the user who held the link, and never the password', async () => {
    await api(server.app, {
      method: 'POST',
      url: '/users/',
      headers: admin,
      payload: { email: 'forgot@example.com', password: 'Strong#2026x' },
    });
    await api(server.app, { method: 'POST', url: '/password-recovery/forgot@example.com' });
    const token = /token=([A-Za-z0-9_-]+)/.exec(server.outbox.at(-1)?.text ?? '')?.[1] ?? '';
    const reset = await api(server.app, {
      method: 'POST',
      url: '/reset-password/',
      payload: { token, new_password: 'Another#2026x' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const [record] = (await page('action=password_reset')).data;
    expect(record).toMatchObject({
      actor_name: 'forgot@example.com',
      object_name: 'forgot@example.com',
      after: { password: 'changed' },
    });
    expect(JSON.stringify(record)).not.toContain('Another#2026x');
  });

  it('refuses bad filters with a 422 naming them, and non-Administrators with a 403', async () => {
    const bad = await api(server.app, {
      method: 'GET',
      url: '/audit/?action=explode&from=yesterday',
      headers: admin,
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('action');
    await api(server.app, {
      method: 'POST',
      url: '/users/',
      headers: admin,
      payload: { email: 'op@example.com', password: 'Strong#2026x', role: 'Operator' },
    });
    const operator = await signIn(server.app, 'op@example.com', 'Strong#2026x');
    for (const url of ['/audit/', '/audit/export?format=json']) {
      const refused = await api(server.app, { method: 'GET', url, headers: operator });
      expect(refused.statusCode).toBe(403);
    }
  });

  it('exports CSV with commas, quotes, line breaks and formulas made harmless', async () => {
    const name = '=HYPERLINK("http://evil"), "quoted"\nline two';
    await server.db.transaction((tx) =>
      recordAudit(tx, {
        orgId,
        actor: serverActor('-2+3'),
        action: 'expire',
        object: { type: 'policy', id: 42, name },
        after: { note: 'a, "b"' },
      }),
    );
    const response = await api(server.app, {
      method: 'GET',
      url: '/audit/export?format=csv&object_id=42',
      headers: admin,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toContain('audit.csv');
    const [header, ...rows] = response.body.split('\r\n').filter(Boolean);
    expect(header).toBe(
      'id,at,actor_kind,actor_id,actor_name,action,object_type,object_id,object_name,before,after,request_id',
    );
    expect(rows).toHaveLength(1);
    const cells = parseCsvLine(rows.join('\r\n'));
    expect(cells[4]).toBe("'-2+3");
    expect(cells[8]).toBe(`'${name}`);
    expect(JSON.parse(cells[10] ?? '')).toEqual({ note: 'a, "b"' });
  });

  it('exports JSON as an array of records, the same filters applied', async () => {
    const response = await api(server.app, {
      method: 'GET',
      url: '/audit/export?format=json&object_type=profile',
      headers: admin,
    });
    expect(response.statusCode).toBe(200);
    const records = response.json<AuditRecord[]>();
    expect(records.map((r) => r.action)).toEqual(['update', 'create']);
  });

  it('streams an export longer than one read, in order', async () => {
    const many = Array.from({ length: 2500 }, (_, i) => ({
      orgId,
      actor: serverActor('bulk'),
      action: 'expire' as const,
      object: { type: 'rule' as const, id: i, name: `r${i}` },
    }));
    await server.db.transaction((tx) => recordAudit(tx, ...many));
    const response = await api(server.app, {
      method: 'GET',
      url: '/audit/export?format=json&actor=bulk',
      headers: admin,
    });
    const ids = response.json<AuditRecord[]>().map((r) => Number(r.object_id));
    expect(ids).toEqual(many.map((_, i) => 2499 - i));
  });

  it('retention deletes what is older than AUDIT_RETENTION_DAYS, and nothing newer', async () => {
    const total = async () =>
      (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log'))[0]?.n;
    const before = await total();
    expect(await pruneAuditLog(server.db, 365)).toBe(0);
    await server.db.query(
      `UPDATE audit_log SET at = now() - interval '400 days' WHERE actor_name = 'bulk'`,
    );
    expect(await pruneAuditLog(server.db, 365)).toBe(2500);
    expect(await total()).toBe((before ?? 0) - 2500);
  });
});

const nothing = () => ({ type: 'policy' as const, id: null, name: null });

/** A CSV record (RFC 4180) into its cells. */
function parseCsvLine(text: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  cells.push(cell);
  return cells;
}
