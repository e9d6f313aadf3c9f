import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postFiles } from '../../test/corpus.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

type Headers = { authorization: string };
interface Entry {
  version: number;
  actor_name: string;
  cause: string;
  restored_from: number | null;
  sha256: string;
  summary: Record<string, number>;
  current: boolean;
}
interface List {
  data: Entry[];
  recordsTotal: number;
  device_count: number;
}
interface Rollback {
  version: number;
  restored_from: number;
  changed: boolean;
  device_count: number;
  render_differs: { added: number; removed: number; changed: number } | null;
  msg: string;
}

const LOCAL = [
  'alert tcp any any -> $HOME_NET 22 (msg:"SSH scan"; sid:6100001; rev:1;)',
  'alert tcp any any -> $HOME_NET 23 (msg:"Telnet"; sid:6100002; rev:1;)',
  'alert udp any any -> any 53 (msg:"DNS any"; sid:6100003; rev:1;)',
].join('\n');

describe('version history, compare and rollback', () => {
  let server: TestServer;
  let admin: Headers;
  let viewer: Headers;
  let group: number;
  const ruleIds = new Map<number, number>();

  const call = async <T = unknown>(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: unknown,
    headers: Headers = admin,
  ) => {
    const response = await api(server.app, {
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: response.statusCode, body: response.json<T>() };
  };
  const ok = async <T>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => {
    const { status, body } = await call<T>(method, url, payload);
    if (status >= 300) throw new Error(`${method} ${url}: ${status} ${JSON.stringify(body)}`);
    return body;
  };
  const versions = (base: string) => ok<List>('GET', `${base}/versions`);
  const importRules = async (name: string, text: string) => {
    const response = await postFiles(server.app, '/rules/import', admin, [{ name, bytes: text }]);
    expect(response.statusCode).toBe(200);
  };

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    await ok('POST', '/users/', {
      email: 'viewer@example.com',
      password: 'Viewer#2026',
      role: 'Viewer',
    });
    viewer = await signIn(server.app, 'viewer@example.com', 'Viewer#2026');
    await importRules('local.rules', LOCAL);
    const groups = await ok<{ data: { id: number; name: string }[] }>('GET', '/groups/?limit=999');
    group = groups.data.find((g) => g.name === 'local')?.id ?? -1;
    const rules = await ok<{ data: { id: number; sid: number }[] }>('GET', '/rules/?limit=100');
    for (const rule of rules.data) ruleIds.set(rule.sid, rule.id);
  });
  afterAll(() => server.close());

  it('records a policy version exactly when its rendered text changes', async () => {
    const policy = await ok<{ id: number }>('POST', '/policies/', {
      name: 'History',
      group_ids: [group],
    });
    const base = `/policies/${policy.id}`;
    const disable = { overrides: [{ rule_id: ruleIds.get(6100002), action: 'disable' }] };
    await ok('PUT', base, disable);
    // The same overrides again, and a rename: the text is the same, so no version.
    await ok('PUT', base, disable);
    await ok('PUT', base, { name: 'History renamed' });
    await ok('PUT', base, {
      thresholds: [{ kind: 'suppress', sid: 6100001, track: 'by_src', ip: '10.0.0.5' }],
    });
    const list = await versions(base);
    expect(list.data.map((v) => v.version)).toEqual([3, 2, 1]);
    expect(list.data.map((v) => v.summary['rule_count'])).toEqual([2, 2, 3]);
    expect(list.data[0]).toMatchObject({ actor_name: ADMIN_EMAIL, cause: 'edit', current: true });
    expect(list.data[2]?.current).toBe(false);
    const current = await ok<{ version: number }>('GET', base);
    expect(current.version).toBe(3);

    const diff = await ok<{
      rules: { removed: { key: string; text: string }[]; counts: Record<string, number> };
      thresholds: { unified: string; added: number };
      changed_fields: string[];
    }>('GET', `${base}/versions/1/diff/3`);
    expect(diff.rules.counts).toEqual({ added: 0, removed: 1, changed: 0, unchanged: 2 });
    expect(diff.rules.removed).toEqual([{ key: '1:6100002', text: LOCAL.split('\n')[1] }]);
    expect(diff.thresholds.added).toBe(1);
    expect(diff.thresholds.unified).toContain('+suppress gen_id 1, sig_id 6100001');
    expect(diff.changed_fields).toEqual(['overrides', 'thresholds']);
  });

  it('stores one content for two policies that render the same text', async () => {
    const a = await ok<{ id: number }>('POST', '/policies/', {
      name: 'Twin A',
      group_ids: [group],
    });
    const b = await ok<{ id: number }>('POST', '/policies/', {
      name: 'Twin B',
      group_ids: [group],
    });
    const [va] = (await versions(`/policies/${a.id}`)).data;
    const [vb] = (await versions(`/policies/${b.id}`)).data;
    expect(va?.sha256).toBe(vb?.sha256);
    const rows = await server.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM rendered_contents WHERE sha256 = $1',
      [va?.sha256 ?? ''],
    );
    expect(rows[0]?.n).toBe(1);
  });

  it('rolls a policy back as a new version, audited, saying when its rules changed since', async () => {
    const policy = await ok<{ id: number }>('POST', '/policies/', {
      name: 'Rollback',
      group_ids: [group],
    });
    const base = `/policies/${policy.id}`;
    await ok('PUT', base, {
      overrides: [{ rule_id: ruleIds.get(6100003), action: 'drop' }],
      matchers: [{ kind: 'disable', matcher: '6100001' }],
    });
    const back = await ok<Rollback>('POST', `${base}/rollback`, { version: 1 });
    expect(back).toMatchObject({
      version: 3,
      restored_from: 1,
      changed: true,
      render_differs: null,
    });
    const list = await versions(base);
    expect(list.data[0]).toMatchObject({ version: 3, cause: 'rollback', restored_from: 1 });
    // Equal in definition and in what it renders: nothing differs between 1 and 3.
    const same = await ok<{ rules: { counts: Record<string, number> }; changed_fields: string[] }>(
      'GET',
      `${base}/versions/1/diff/3`,
    );
    expect(same.changed_fields).toEqual([]);
    expect(same.rules.counts).toMatchObject({ added: 0, removed: 0, changed: 0 });
    const audit = await server.db.query<{ action: string; object_type: string; after: unknown }>(
      `SELECT action, object_type, after FROM audit_log WHERE object_id = $1 AND action = 'rollback'`,
      [String(policy.id)],
    );
    expect(audit).toEqual([
      { action: 'rollback', object_type: 'policy', after: { version: 3, restored_from: 1 } },
    ]);

    // The group gains a rule: version 2's settings now render one rule more than version 2 did.
    await importRules(
      'local.rules',
      `${LOCAL}\nalert tcp any any -> any 25 (msg:"SMTP"; sid:6100004; rev:1;)`,
    );
    const again = await ok<Rollback>('POST', `${base}/rollback`, { version: 2 });
    expect(again.changed).toBe(true);
    expect(again.render_differs).toEqual({ added: 1, removed: 0, changed: 0 });
    expect(again.msg).toContain('1 rule(s) render differently');
  });

  it('refuses a Viewer a rollback and an unknown version', async () => {
    const policy = await ok<{ id: number }>('POST', '/policies/', {
      name: 'Guarded',
      group_ids: [group],
    });
    const refused = await call('POST', `/policies/${policy.id}/rollback`, { version: 1 }, viewer);
    expect(refused.status).toBe(403);
    expect((await call('GET', `/policies/${policy.id}/versions`, undefined, viewer)).status).toBe(
      200,
    );
    const unknown = await call<{ msg: string }>('POST', `/policies/${policy.id}/rollback`, {
      version: 9,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.msg).toContain('Version 9');
    const badDiff = await call('GET', `/policies/${policy.id}/versions/1/diff/0`);
    expect(badDiff.status).toBe(422);
  });

  it('versions a ruleset by its rules and chain policies, and rolls it back', async () => {
    const rules = [
      { chain: 'input', action: 'accept', states: ['established', 'related'], comment: 'replies' },
      { chain: 'input', action: 'accept', protocol: 'tcp', destination_ports: '22' },
    ];
    const ruleset = await ok<{ id: number }>('POST', '/fwruleset/', {
      name: 'Edge',
      policies: { input: 'accept', forward: 'drop', output: 'accept' },
      rules,
    });
    const base = `/fwruleset/${ruleset.id}`;
    await ok('PUT', base, { name: 'Edge renamed', policies: { input: 'accept' }, rules });
    expect((await versions(base)).recordsTotal).toBe(1);
    await ok('PUT', base, {
      name: 'Edge renamed',
      policies: { input: 'accept' },
      rules: [
        rules[0],
        { ...rules[1], destination_ports: '2222' },
        { chain: 'input', action: 'drop' },
      ],
    });
    const diff = await ok<{
      firewall_rules: { counts: Record<string, number>; changed: { new: string }[] };
      nftables: { unified: string };
    }>('GET', `${base}/versions/1/diff/2`);
    expect(diff.firewall_rules.counts).toEqual({ added: 1, removed: 0, changed: 1, unchanged: 1 });
    expect(diff.firewall_rules.changed[0]?.new).toContain('dport 2222');
    expect(diff.nftables.unified).toMatch(/^-.*dport 22 /m);
    expect(diff.nftables.unified).toMatch(/^\+.*dport 2222 /m);

    const back = await ok<Rollback>('POST', `${base}/rollback`, { version: 1 });
    expect(back).toMatchObject({ version: 3, changed: true });
    const restored = await ok<{ rules: { destination_ports: string }[]; name: string }>(
      'GET',
      base,
    );
    expect(restored.rules.map((r) => r.destination_ports)).toEqual(['', '22']);
    expect(restored.name).toBe('Edge renamed');
    const noop = await ok<Rollback>('POST', `${base}/rollback`, { version: 3 });
    expect(noop).toMatchObject({ version: 3, changed: false });
  });

  it('versions profiles and device networks, compares and rolls them back', async () => {
    const profile = await ok<{ id: number }>('POST', '/deviceconfigurationprofiles/', {
      name: 'Site',
      variables: { HOME_NET: '[10.0.0.0/8]' },
    });
    const pbase = `/deviceconfigurationprofiles/${profile.id}`;
    await ok('PUT', pbase, { variables: { HOME_NET: '[10.1.0.0/16]', HTTP_PORTS: '80' } });
    const vdiff = await ok<{ variables: unknown }>('GET', `${pbase}/versions/1/diff/2`);
    expect(vdiff.variables).toEqual({
      added: [{ name: 'HTTP_PORTS', value: '80' }],
      removed: [],
      changed: [{ name: 'HOME_NET', old: '[10.0.0.0/8]', new: '[10.1.0.0/16]' }],
    });
    const device = await ok<{ id: number }>('POST', '/devices/', {
      name: 'edge-1',
      password: 'device-secret-1234',
      profile_id: profile.id,
    });
    const pback = await ok<Rollback>('POST', `${pbase}/rollback`, { version: 1 });
    expect(pback).toMatchObject({ version: 3, changed: true, device_count: 1 });
    const restored = await ok<{ variables: Record<string, string> }>(
      'GET',
      `/deviceconfigurationprofiles/?filter=name:Site`,
    );
    expect(JSON.stringify(restored)).toContain('[10.0.0.0/8]');

    const nbase = `/devices/${device.id}/network`;
    const network = {
      l3_mode: true,
      routes: [{ address: '10.20.0.0/16', gateway: '10.0.0.1', metric: 10, interface: 'eth1' }],
      source_nat: [],
      port_forwards: [],
    };
    await ok('PUT', nbase, network);
    await ok('PUT', nbase, network);
    expect((await versions(nbase)).data.map((v) => v.version)).toEqual([2, 1]);
    const rdiff = await ok<{ routes: { unified: string }; nat: { unified: string } }>(
      'GET',
      `${nbase}/versions/1/diff/2`,
    );
    expect(rdiff.routes.unified).toMatch(
      /^\+ip -4 route replace 10\.20\.0\.0\/16 via 10\.0\.0\.1/m,
    );
    expect(rdiff.nat.unified).toContain('+l3_mode on');
    const nback = await ok<Rollback>('POST', `${nbase}/rollback`, { version: 1 });
    expect(nback).toMatchObject({ version: 3, changed: true, device_count: 1 });
    expect((await ok<{ l3_mode: boolean }>('GET', nbase)).l3_mode).toBe(false);
  });

  it('records the versions of many policies in one statement', async () => {
    const statementsFor = async (policies: number) => {
      const sid = 6200000 + policies * 10;
      await importRules(
        `cost${policies}.rules`,
        `alert ip any any -> any any (msg:"c"; sid:${sid}; rev:1;)`,
      );
      const groups = await ok<{ data: { id: number; name: string }[] }>(
        'GET',
        '/groups/?limit=999',
      );
      const costGroup = groups.data.find((g) => g.name === `cost${policies}`)?.id;
      for (let i = 0; i < policies; i += 1)
        await ok('POST', '/policies/', { name: `cost ${policies} ${i}`, group_ids: [costGroup] });
      const rules = await ok<{ data: { id: number; sid: number }[] }>(
        'GET',
        `/rules/?filter=sid:${sid}`,
      );
      const rule = rules.data.find((r) => r.sid === sid)?.id;
      const { statements } = await server.statements.during(() =>
        ok('PUT', `/rules/${rule}`, {
          text: `alert ip any any -> any any (msg:"changed"; sid:${sid}; rev:2;)`,
        }),
      );
      return statements.filter((sql) => /object_versions|rendered_contents/.test(sql));
    };
    const one = await statementsFor(1);
    const many = await statementsFor(12);
    expect(one).toHaveLength(1);
    expect(many).toEqual(one);
  });
});
