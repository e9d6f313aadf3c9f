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
interface PolicyBody {
  id: number;
  version: number;
  rule_count: number;
  removed_count: number;
  can_edit: boolean;
  editors: number[];
}
interface Render {
  version: number;
  rules: string;
  thresholds: string;
  rule_count: number;
}

const LOCAL = [
  'alert tcp any any -> $HOME_NET 22 (msg:"SSH scan"; sid:5000001; rev:1;)',
  'alert tcp any any -> $HOME_NET 23 (msg:"Telnet"; sid:5000002; rev:1;)',
  '# alert udp any any -> any 53 (msg:"DNS any"; metadata:policy balanced-ips; sid:5000003; rev:1;)',
].join('\n');
const OTHER = 'alert icmp any any -> any any (msg:"ping"; sid:5100001; rev:1;)\n';

describe('policies', () => {
  let server: TestServer;
  let admin: Headers;
  let operator: Headers;
  let operatorId: number;
  let localGroup: number;
  let policy: PolicyBody;
  const ruleIds = new Map<number, number>();

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    headers: Headers,
    payload?: unknown,
  ) =>
    api(server.app, {
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const render = async (id = policy.id) =>
    (await call('GET', `/policies/${id}/render`, admin)).json<Render>();
  const importFiles = async (files: { name: string; bytes: string }[]) => {
    return postFiles(server.app, '/rules/import', admin, files);
  };
  const uploadTo = async (
    id: number,
    files: { name: string; bytes: string }[],
    headers: Headers = admin,
  ) => {
    return postFiles(server.app, `/policies/${id}/upload`, headers, files);
  };

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const created = await call('POST', '/users/', admin, {
      email: 'op@example.com',
      password: 'Operator#2026',
      role: 'Operator',
    });
    operatorId = created.json<{ id: number }>().id;
    operator = await signIn(server.app, 'op@example.com', 'Operator#2026');
    await importFiles([
      { name: 'local.rules', bytes: LOCAL },
      { name: 'other.rules', bytes: OTHER },
    ]);
    const groups = (await call('GET', '/groups/?limit=999999', admin)).json<{
      data: { id: number; name: string }[];
    }>().data;
    localGroup = groups.find((g) => g.name === 'local')?.id ?? -1;
    const page = (await call('GET', '/rules/?limit=100', admin)).json<{
      data: { id: number; sid: number }[];
    }>().data;
    for (const rule of page) ruleIds.set(rule.sid, rule.id);
  });
  afterAll(() => server.close());

  it('builds a policy from groups; its rendering is the enabled rules in sid order', async () => {
    const created = await call('POST', '/policies/', operator, {
      name: 'Perimeter',
      group_ids: [localGroup],
    });
    expect(created.statusCode).toBe(201);
    policy = created.json<PolicyBody>();
    expect(policy).toMatchObject({ rule_count: 2, version: 1, can_edit: true });
    const rendered = await render();
    expect(rendered.rules).toBe(`${LOCAL.split('\n').slice(0, 2).join('\n')}\n`);
    expect(rendered).toMatchObject({ rule_count: 2, version: policy.version });
  });

  it('applies overrides and thresholds, and the version moves only when the text does', async () => {
    const renamed = await call('PUT', `/policies/${policy.id}`, admin, { name: 'Perimeter IPS' });
    expect(renamed.json<PolicyBody>().version).toBe(policy.version);

    const tuned = await call('PUT', `/policies/${policy.id}`, admin, {
      overrides: [
        { rule_id: ruleIds.get(5000001), action: 'drop' },
        { rule_id: ruleIds.get(5000003), action: 'enable' },
      ],
      thresholds: [{ kind: 'suppress', sid: 5000002, track: 'by_src', ip: '10.0.0.5' }],
    });
    expect(tuned.statusCode).toBe(200);
    const body = tuned.json<PolicyBody>();
    expect(body.version).toBe(policy.version + 1);
    expect(body.rule_count).toBe(3);
    const rendered = await render();
    expect(rendered.rules.split('\n')).toEqual([
      'drop tcp any any -> $HOME_NET 22 (msg:"SSH scan"; sid:5000001; rev:1;)',
      'alert tcp any any -> $HOME_NET 23 (msg:"Telnet"; sid:5000002; rev:1;)',
      'alert udp any any -> any 53 (msg:"DNS any"; metadata:policy balanced-ips; sid:5000003; rev:1;)',
      '',
    ]);
    expect(rendered.thresholds).toBe(
      'suppress gen_id 1, sig_id 5000002, track by_src, ip 10.0.0.5\n',
    );
    // Both files download as the sensor loads them, named after the policy and its version.
    const thresholdFile = await call('GET', `/policies/${policy.id}/threshold.config`, admin);
    expect(thresholdFile.statusCode).toBe(200);
    expect(thresholdFile.body).toBe(rendered.thresholds);
    expect(thresholdFile.headers['content-disposition']).toBe(
      `attachment; filename="Perimeter_IPS-v${body.version}.threshold.config"`,
    );
    const rulesFile = await call('GET', `/policies/${policy.id}/rules`, admin);
    expect(rulesFile.body).toBe(rendered.rules);
    policy = body;
  });

  it('bumps the version when an import changes a rule it renders, not for unrelated files', async () => {
    await importFiles([
      {
        name: 'other.rules',
        bytes: `${OTHER}alert icmp any any -> any any (msg:"pong"; sid:5100002; rev:1;)\n`,
      },
    ]);
    expect((await render()).version).toBe(policy.version);
    await importFiles([
      {
        name: 'local.rules',
        bytes: LOCAL.replace('Telnet"; sid:5000002; rev:1', 'Telnet login"; sid:5000002; rev:2'),
      },
    ]);
    const rendered = await render();
    expect(rendered.version).toBe(policy.version + 1);
    expect(rendered.rules).toContain('msg:"Telnet login"');
    policy = { ...policy, version: rendered.version };
  });

  it('keeps a rule that vanished from its file, counted as removed', async () => {
    await importFiles([{ name: 'local.rules', bytes: LOCAL.split('\n').slice(1).join('\n') }]);
    const view = (await call('GET', `/policies/${policy.id}`, admin)).json<PolicyBody>();
    expect(view.removed_count).toBe(1);
    expect((await render()).rules).toContain('sid:5000001');
  });

  it('takes suricata-update conf files and refuses a bad line naming file and line', async () => {
    const bad = await uploadTo(policy.id, [
      { name: 'disable.conf', bytes: '5000002\n' },
      { name: 'drop.conf', bytes: '# ok\nnot a matcher at all\n' },
    ]);
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ msg: string }>().msg).toMatch(/^drop\.conf line 2: /);
    expect((await render()).rules).toContain('sid:5000002');
    // Every bad line is named at once.
    const several = await uploadTo(policy.id, [
      { name: 'enable.conf', bytes: 'bad one\n5000001\nbad two\nbad three\n' },
    ]);
    expect(several.statusCode).toBe(422);
    expect(several.json<{ msg: string }>().msg).toMatch(
      /^enable\.conf line 1: .* \(also lines 3, 4\)$/,
    );

    const good = await uploadTo(policy.id, [
      { name: 'disable.conf', bytes: '1:5000002\n' },
      { name: 'modify.conf', bytes: '5000003 "any 53" "any [53,5353]"\n' },
    ]);
    expect(good.statusCode).toBe(200);
    expect(good.json()).toMatchObject({ added: { disable: 1, modify: 1, enable: 0, drop: 0 } });
    const rendered = await render();
    expect(rendered.rules).not.toContain('sid:5000002');
    expect(rendered.rules).toContain('any [53,5353] (msg:"DNS any"');
  });

  it('renders a rule disabled in its file once an enable.conf metadata matcher turns it on', async () => {
    const fresh = (
      await call('POST', '/policies/', admin, { name: 'Balanced', group_ids: [localGroup] })
    ).json<PolicyBody>();
    expect((await render(fresh.id)).rules).not.toContain('sid:5000003');
    const upload = await uploadTo(fresh.id, [
      { name: 'enable.conf', bytes: 'metadata: policy balanced-ips\n' },
    ]);
    expect(upload.statusCode).toBe(200);
    const rendered = await render(fresh.id);
    expect(rendered.rules).toContain('alert udp any any -> any 53 (msg:"DNS any"');
    expect(rendered.rules).toContain('sid:5000003');
    // The same file again adds nothing: the policy keeps one copy of each line.
    const again = await uploadTo(fresh.id, [
      { name: 'enable.conf', bytes: 'metadata: policy balanced-ips\n' },
    ]);
    expect(again.json()).toMatchObject({ added: { enable: 0 } });
    expect(again.json<{ policy: { matchers: unknown[] } }>().policy.matchers).toHaveLength(1);
    expect((await call('DELETE', `/policies/${fresh.id}`, admin)).statusCode).toBe(200);
  });

  it('exports to a file that rebuilds the same rendering in another policy', async () => {
    const exported = await call('GET', `/policies/${policy.id}/export`, admin);
    expect(exported.headers['content-disposition']).toContain('Perimeter_IPS.policy.json');
    const copy = (await call('POST', '/policies/', admin, { name: 'Copy' })).json<PolicyBody>();
    const uploaded = await uploadTo(copy.id, [
      { name: 'perimeter.policy.json', bytes: exported.body },
    ]);
    expect(uploaded.json()).toMatchObject({
      imported_export: true,
      unknown_groups: [],
      unknown_rules: [],
    });
    const [original, copied] = await Promise.all([render(), render(copy.id)]);
    expect(copied.rules).toBe(original.rules);
    expect(copied.thresholds).toBe(original.thresholds);
    const download = await call('GET', `/policies/${copy.id}/rules`, admin);
    expect(download.headers['content-type']).toContain('text/plain');
    expect(download.body).toBe(original.rules);
  });

  it('restricts a policy to its editors, Administrators excepted', async () => {
    const restricted = await call('PUT', `/policies/${policy.id}`, admin, {
      restricted: true,
      editors: [],
    });
    expect(restricted.json<PolicyBody>().editors).toEqual([]);
    const refused = await call('PUT', `/policies/${policy.id}`, operator, {
      description: 'mine now',
    });
    expect(refused.statusCode).toBe(403);
    expect(
      (await call('GET', `/policies/${policy.id}`, operator)).json<PolicyBody>().can_edit,
    ).toBe(false);
    await call('PUT', `/policies/${policy.id}`, admin, { editors: [operatorId] });
    expect(
      (await call('PUT', `/policies/${policy.id}`, operator, { description: 'tuned' })).statusCode,
    ).toBe(200);
    // The operator, who may not list users, still sees who the editors are.
    expect((await call('GET', `/policies/${policy.id}`, operator)).json()).toMatchObject({
      editors: [operatorId],
      editor_emails: ['op@example.com'],
    });
  });

  it('refuses bad input with field details and foreign ids as missing', async () => {
    const taken = await call('POST', '/policies/', admin, { name: 'copy' });
    expect(taken.statusCode).toBe(409);
    const badThreshold = await call('POST', '/policies/', admin, {
      name: 'T',
      thresholds: [{ kind: 'threshold', sid: 1 }],
    });
    expect(badThreshold.statusCode).toBe(422);
    expect(
      badThreshold.json<{ details: { field: string }[] }>().details.map((d) => d.field),
    ).toEqual(expect.arrayContaining(['body.thresholds.0.type', 'body.thresholds.0.count']));
    const badMatcher = await call('POST', '/policies/', admin, {
      name: 'M',
      matchers: [{ kind: 'enable', matcher: 're:([' }],
    });
    expect(badMatcher.statusCode).toBe(422);
    expect(
      (await call('POST', '/policies/', admin, { name: 'G', group_ids: [987654] })).statusCode,
    ).toBe(404);
    expect((await call('GET', '/policies/?sortBy=secret', admin)).statusCode).toBe(422);
  });

  it('keeps a group in use and lets a Viewer only read', async () => {
    const refused = await call('DELETE', `/groups/${localGroup}`, admin);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ msg: string }>().msg).toContain("'Perimeter IPS'");
    await call('POST', '/users/', admin, {
      email: 'v@example.com',
      password: 'Viewer#2026',
      role: 'Viewer',
    });
    const viewer = await signIn(server.app, 'v@example.com', 'Viewer#2026');
    expect(
      (await call('GET', '/policies/', viewer)).json<{ recordsTotal: number }>().recordsTotal,
    ).toBe(2);
    expect((await call('POST', '/policies/', viewer, { name: 'nope' })).statusCode).toBe(403);
    expect((await call('DELETE', `/policies/${policy.id}`, viewer)).statusCode).toBe(403);
  });

  it('enables the rules an enabled rule needs for its flowbits, unless turned off', async () => {
    const flows = [
      'alert http any any -> any any (msg:"stage 2"; flowbits:isset,ET.stage1; sid:5200001; rev:1;)',
      '# alert http any any -> any any (msg:"stage 1"; flowbits:set,ET.stage1; sid:5200002; rev:1;)',
      '# alert http any any -> any any (msg:"unrelated"; flowbits:set,ET.other; sid:5200003; rev:1;)',
    ];
    await importFiles([{ name: 'flows.rules', bytes: flows.join('\n') }]);
    const groups = (await call('GET', '/groups/?filter=name:flows', admin)).json<{
      data: { id: number }[];
    }>().data;
    const created = await call('POST', '/policies/', admin, {
      name: 'Flows',
      group_ids: groups.map((g) => g.id),
    });
    const flowPolicy = created.json<PolicyBody & { resolve_flowbits: boolean }>();
    expect(flowPolicy).toMatchObject({ resolve_flowbits: true, rule_count: 2 });
    const rendered = (await call('GET', `/policies/${flowPolicy.id}/render`, admin)).json<
      Render & { flowbit_rules: { sid: number; msg: string; flowbits: string[] }[] }
    >();
    expect(rendered.rules.split('\n')[1]).toBe(
      'alert http any any -> any any (msg:"stage 1"; flowbits:set,ET.stage1; noalert; sid:5200002; rev:1;)',
    );
    expect(rendered.flowbit_rules).toMatchObject([
      { sid: 5200002, msg: 'stage 1', flowbits: ['ET.stage1'] },
    ]);

    const off = await call('PUT', `/policies/${flowPolicy.id}`, admin, { resolve_flowbits: false });
    expect(off.json<PolicyBody>()).toMatchObject({
      resolve_flowbits: false,
      rule_count: 1,
      version: flowPolicy.version + 1,
    });
    const exported = (await call('GET', `/policies/${flowPolicy.id}/export`, admin)).json<{
      resolve_flowbits: boolean;
    }>();
    expect(exported.resolve_flowbits).toBe(false);
    expect(
      (await call('GET', `/policies/${flowPolicy.id}/render`, admin)).json<
        Render & { flowbit_rules: [] }
      >().flowbit_rules,
    ).toEqual([]);
  });
});
