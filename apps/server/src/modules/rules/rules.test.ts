import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NEEDS_CORPUS,
  corpusDir,
  corpusFile,
  corpusForTests,
  oracle,
  postFiles,
  sampleRulesFiles,
} from '../../test/corpus.js';
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
interface Report {
  files: { file: string; group: string; rules: number }[];
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
  classifications: number;
  rejected: { file: string; line: number; msg: string }[];
  warnings: { file: string; line: number; msg: string }[];
  warning_count: number;
}
interface RulePage {
  data: {
    id: number;
    sid: number;
    gid: number;
    msg: string;
    action: string;
    proto: string | null;
    removed: boolean;
    enabled: boolean;
    groups: string[];
    priority: number | null;
    classtype: string | null;
  }[];
  recordsTotal: number;
}

/** The imports of real rule sets check agreement with the reference parser: they need the corpus. */
const REAL_RULE_SETS = { skip: !corpusForTests('rules', 'oracle') };

const uniqueKeys = (rules: { gid: number; sid: number }[]) =>
  new Set(rules.map((r) => `${r.gid}:${r.sid}`)).size;

describe('rule import', () => {
  let server: TestServer;
  let admin: Headers;

  const upload = async (
    headers: Headers,
    files: { name: string; bytes: Uint8Array | string }[],
    query = '',
  ) => {
    return postFiles(server.app, `/rules/import${query}`, headers, files);
  };
  const rules = (query: string) => api(server.app, { url: `/rules/${query}`, headers: admin });
  const count = async () => (await rules('?limit=0')).json<RulePage>().recordsTotal;
  /** The groups whose name contains `name`, as the list answers them. */
  const groupsNamed = async (name: string) =>
    (
      await api(server.app, { url: `/groups/?limit=999999&filter=name:${name}`, headers: admin })
    ).json<{ data: { name: string; kind: string; rule_count: number; enabled_count: number }[] }>()
      .data;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
  });
  afterAll(() => server.close());

  it(
    `imports Suricata's rule files, one group per file, agreeing with the reference parser ${NEEDS_CORPUS}`,
    REAL_RULE_SETS,
    async () => {
      const files = corpusDir('rules/suricata').filter((f) => f.name.endsWith('.rules'));
      const response = await upload(admin, files);
      expect(response.statusCode).toBe(200);
      const report = response.json<Report>();
      const reference = oracle('suricata-rules');
      expect(report.added).toBe(uniqueKeys(reference));
      expect(report.rejected).toEqual([]);
      expect(report.files).toHaveLength(files.length);
      expect(await count()).toBe(uniqueKeys(reference));

      const http = (await groupsNamed('http-events')).find((g) => g.name === 'http-events');
      expect(http).toMatchObject({
        kind: 'file',
        rule_count: uniqueKeys(reference.filter((r) => r.file.endsWith('/http-events.rules'))),
      });
    },
  );

  it(
    `imports the Snort community tarball with its disabled rules, and a re-import changes nothing ${NEEDS_CORPUS}`,
    REAL_RULE_SETS,
    async () => {
      const tarball = {
        name: 'community-rules.tar.gz',
        bytes: corpusFile('rules/snort2-community/community-rules.tar.gz'),
      };
      const before = await count();
      const first = (await upload(admin, [tarball])).json<Report>();
      const reference = oracle('snort2-community-tarball');
      expect(first.added).toBe(uniqueKeys(reference));
      expect(first.files).toEqual([
        {
          file: 'community-rules/community.rules',
          group: 'community',
          rules: uniqueKeys(reference),
        },
      ]);
      expect(await count()).toBe(before + uniqueKeys(reference));
      const disabled = (
        await rules('?limit=0&filter=enabled:false,source:community.rules')
      ).json<RulePage>();
      expect(disabled.recordsTotal).toBe(reference.filter((r) => !r.enabled).length);
      const group = (await groupsNamed('community'))[0];
      expect(group).toMatchObject({
        name: 'community',
        rule_count: uniqueKeys(reference),
        enabled_count: uniqueKeys(reference.filter((r) => r.enabled)),
      });

      const again = (await upload(admin, [tarball])).json<Report>();
      expect(again).toMatchObject({
        added: 0,
        updated: 0,
        removed: 0,
        unchanged: uniqueKeys(reference),
      });
    },
  );

  it('replaces a rule by a newer rev, never by an older one, marks vanished rules removed and names rejected lines', async () => {
    const v1 = [
      'alert tcp any any -> $HOME_NET 22 (msg:"SSH brute force"; flow:to_server; sid:9000001; rev:2;)',
      'alert tcp any any -> $HOME_NET 23 (msg:"Telnet attempt"; sid:9000002; rev:1;)',
      'alert udp any any -> any 53 (msg:"DNS oddity"; sid:9000003; rev:1;)',
    ].join('\n');
    expect(
      (await upload(admin, [{ name: 'local.rules', bytes: v1 }])).json<Report>(),
    ).toMatchObject({ added: 3 });

    const v2 = [
      'alert tcp any any -> $HOME_NET 22 (msg:"SSH brute force, tuned"; flow:to_server; sid:9000001; rev:3;)',
      'alert tcp any any -> $HOME_NET 23 (msg:"Telnet attempt (old)"; sid:9000002; rev:0;)',
      'alert tcp any any -> any any (msg:"broken"; sid:9000004 rev:1;)',
      'this is not a rule',
    ].join('\n');
    const report = (await upload(admin, [{ name: 'local.rules', bytes: v2 }])).json<Report>();
    expect(report).toMatchObject({ added: 0, updated: 1, unchanged: 1, removed: 1 });
    expect(report.rejected.map((r) => [r.file, r.line])).toEqual([
      ['local.rules', 3],
      ['local.rules', 4],
    ]);
    expect(report.rejected[0]?.msg).toBeTruthy();

    const local = (await rules('?filter=group:local&sortBy=sid')).json<RulePage>();
    expect(local.data.map((r) => [r.sid, r.msg, r.removed])).toEqual([
      [9000001, 'SSH brute force, tuned', false],
      [9000002, 'Telnet attempt', false],
      [9000003, 'DNS oddity', true],
    ]);
    // The group still holds the removed rule, but does not count it as enabled.
    expect(await groupsNamed('local')).toEqual([
      expect.objectContaining({ name: 'local', rule_count: 3, enabled_count: 2 }),
    ]);

    // Back in the file: no longer removed.
    const v3 = `${v2.split('\n')[0]}\nalert udp any any -> any 53 (msg:"DNS oddity"; sid:9000003; rev:1;)\n`;
    expect(
      (await upload(admin, [{ name: 'local.rules', bytes: v3 }])).json<Report>(),
    ).toMatchObject({ updated: 1, removed: 1 });
    const after = (await rules('?filter=group:local&sortBy=sid')).json<RulePage>();
    expect(after.data.map((r) => [r.sid, r.removed])).toEqual([
      [9000001, false],
      [9000002, true],
      [9000003, false],
    ]);
  });

  it('moves a rule between files in one upload without marking it removed', async () => {
    const first = [
      'alert tcp any any -> any 8080 (msg:"Proxy probe"; sid:9150001; rev:1;)',
      'alert tcp any any -> any 3128 (msg:"Squid probe"; sid:9150002; rev:1;)',
    ];
    await upload(admin, [{ name: 'web-a.rules', bytes: first.join('\n') }]);
    // The Squid rule moves to web-b.rules, listed before web-a.rules in the same upload.
    const report = (
      await upload(admin, [
        { name: 'web-b.rules', bytes: first[1] ?? '' },
        { name: 'web-a.rules', bytes: first[0] ?? '' },
      ])
    ).json<Report>();
    expect(report).toMatchObject({ added: 0, removed: 0 });
    const inGroup = async (group: string) =>
      (await rules(`?filter=group:${group}&sortBy=sid`))
        .json<RulePage>()
        .data.map((r) => [r.sid, r.removed]);
    expect(await inGroup('web-a')).toEqual([[9150001, false]]);
    expect(await inGroup('web-b')).toEqual([[9150002, false]]);
  });

  it('tells of a rule twice in a file and of one another file holds; a newer rev edited in the console stays', async () => {
    const first = 'alert tcp any any -> any 7000 (msg:"Shared A"; sid:9160001; rev:1;)';
    const again = 'alert tcp any any -> any 7001 (msg:"Shared A again"; sid:9160001; rev:2;)';
    const twice = (
      await upload(admin, [{ name: 'dup-a.rules', bytes: `${first}\n${again}\n` }])
    ).json<Report>();
    expect(twice).toMatchObject({ added: 1, warning_count: 1 });
    expect(twice.warnings[0]).toMatchObject({ file: 'dup-a.rules', line: 2 });
    expect(twice.warnings[0]?.msg).toContain('line 1');

    // Another file's text of the same (gid, sid) replaces it, and the report says whose it was.
    const other = 'alert tcp any any -> any 7002 (msg:"Shared B"; sid:9160001; rev:3;)';
    const taken = (await upload(admin, [{ name: 'dup-b.rules', bytes: other }])).json<Report>();
    expect(taken).toMatchObject({ updated: 1, warning_count: 1 });
    expect(taken.warnings[0]?.msg).toContain('dup-a.rules');

    // Edited in the console with a raised rev: another file's older rev does not overwrite it.
    const [row] = (await rules('?filter=sid:9160001')).json<RulePage>().data;
    const tuned = 'alert tcp any any -> any 7002 (msg:"Shared B, tuned"; sid:9160001; rev:10;)';
    const edited = await api(server.app, {
      method: 'PUT',
      url: `/rules/${row?.id}`,
      headers: admin,
      payload: { text: tuned },
    });
    expect(edited.statusCode).toBe(200);
    const again2 = (await upload(admin, [{ name: 'dup-a.rules', bytes: again }])).json<Report>();
    expect(again2).toMatchObject({ updated: 0, unchanged: 1, warning_count: 1 });
    expect(again2.warnings[0]?.msg).toContain('newer');
    const kept = (await rules('?filter=sid:9160001')).json<RulePage>().data;
    expect(kept.map((r) => [r.msg, r.removed])).toEqual([['Shared B, tuned', false]]);
  });

  it('reads zip archives with classification.config, whose priorities fill in rules without one', async () => {
    const zip = zipSync({
      'rules/classification.config': new TextEncoder().encode(
        'config classification: trojan-activity,A Network Trojan was detected,1\n',
      ),
      'rules/zipped.rules': new TextEncoder().encode(
        'alert tcp any any -> any any (msg:"zipped"; classtype:trojan-activity; sid:9100001; rev:1;)\n',
      ),
      'README.txt': new TextEncoder().encode('ignored'),
    });
    const report = (await upload(admin, [{ name: 'bundle.zip', bytes: zip }])).json<Report>();
    expect(report).toMatchObject({
      added: 1,
      classifications: 1,
      files: [{ file: 'rules/zipped.rules', group: 'zipped' }],
    });
    const zipped = (await rules('?filter=sid:9100001')).json<RulePage>();
    expect(zipped.data[0]).toMatchObject({ priority: 1, groups: ['zipped'] });
  });

  it('imports the rest of an upload beside a file without a valid rule, and warns of it', async () => {
    const response = await upload(admin, [
      {
        name: 'good.rules',
        bytes: 'alert tcp any any -> any any (msg:"good"; sid:9200001; rev:1;)\n',
      },
      { name: 'junk.rules', bytes: '# just a comment\nhello world\n' },
    ]);
    expect(response.statusCode).toBe(200);
    const report = response.json<Report>();
    expect(report.files).toEqual([{ file: 'good.rules', group: 'good', rules: 1 }]);
    expect(report.rejected).toMatchObject([{ file: 'junk.rules', line: 2 }]);
    expect(report.warnings).toMatchObject([{ file: 'junk.rules', line: 0 }]);
    expect(report.warnings[0]?.msg).toMatch(
      /^no valid rule \(1 line\(s\) rejected; first, line 2: /,
    );
    expect(await groupsNamed('junk')).toEqual([]);
  });

  it('refuses an upload without any valid rule naming file and line, and changes nothing', async () => {
    const before = await count();
    const response = await upload(admin, [
      { name: 'junk.rules', bytes: '# just a comment\nhello world\n' },
    ]);
    expect(response.statusCode).toBe(422);
    expect(response.json<{ msg: string }>().msg).toMatch(
      /^no valid rule in the upload; first rejected: junk\.rules line 2: /,
    );
    expect(await count()).toBe(before);
  });

  it('in strict mode refuses the whole upload over one bad line', async () => {
    const before = await count();
    const response = await upload(
      admin,
      [
        {
          name: 'strict.rules',
          bytes:
            'alert tcp any any -> any any (msg:"ok"; sid:9300001;)\nalert tcp any any -> (msg:"bad"; sid:9300002;)\n',
        },
      ],
      '?strict=true',
    );
    expect(response.statusCode).toBe(422);
    expect(response.json<{ details: { field: string }[] }>().details[0]?.field).toBe(
      'strict.rules:2',
    );
    expect(await count()).toBe(before);
  });

  it('refuses files that are neither rules nor archives, and damaged archives', async () => {
    const exe = await upload(admin, [{ name: 'setup.exe', bytes: 'MZ' }]);
    expect(exe.statusCode).toBe(422);
    expect(exe.json<{ msg: string }>().msg).toContain('setup.exe');
    const broken = await upload(admin, [{ name: 'broken.tar.gz', bytes: 'not gzip at all' }]);
    expect(broken.statusCode).toBe(422);
    expect(broken.json<{ msg: string }>().msg).toContain('broken.tar.gz');
  });
});

describe('rule lists, custom rules and groups', () => {
  let server: TestServer;
  let admin: Headers;
  let viewer: Headers;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    await postFiles(server.app, '/rules/import', admin, sampleRulesFiles());
    await api(server.app, {
      method: 'POST',
      url: '/users/',
      headers: admin,
      payload: { email: 'viewer@example.com', password: 'Viewer#2026', role: 'Viewer' },
    });
    viewer = await signIn(server.app, 'viewer@example.com', 'Viewer#2026');
  });
  afterAll(() => server.close());

  const list = (query: string, headers: Headers = admin) =>
    api(server.app, { url: `/rules/${query}`, headers });

  it('pages by 5000 by default, sorts and searches msg, sid, classtype and group', async () => {
    const all = (await list('')).json<RulePage>();
    expect(all.data.length).toBe(Math.min(5000, all.recordsTotal));
    const sorted = (await list('?limit=3&sortBy=sid&sortDesc=true')).json<RulePage>();
    expect(sorted.data.map((r) => r.sid)).toEqual(
      [...sorted.data.map((r) => r.sid)].sort((a, b) => b - a),
    );
    const page2 = (await list('?limit=3&offset=3&sortBy=sid&sortDesc=true')).json<RulePage>();
    expect(page2.data[0]?.sid).toBeLessThan(sorted.data[2]?.sid ?? 0);
    // Rules without a classtype come last whichever way classtypes are sorted.
    for (const desc of ['false', 'true']) {
      const classtypes = (await list(`?sortBy=classtype&sortDesc=${desc}`))
        .json<RulePage>()
        .data.map((r) => r.classtype);
      const firstEmpty = classtypes.indexOf(null);
      expect(firstEmpty).toBeGreaterThan(0);
      expect(classtypes.slice(firstEmpty).every((c) => c === null)).toBe(true);
    }

    const smtp = (await list('?filter=SMTP')).json<RulePage>();
    expect(smtp.recordsTotal).toBeGreaterThan(0);
    expect(
      smtp.data.every((r) => /smtp/i.test(r.msg) || r.groups.some((g) => /smtp/i.test(g))),
    ).toBe(true);
    const bySid = (await list(`?filter=${smtp.data[0]?.sid}`)).json<RulePage>();
    expect(bySid.data.map((r) => r.sid)).toContain(smtp.data[0]?.sid);
    const inGroup = (await list('?filter=group:dns-events')).json<RulePage>();
    expect(inGroup.data.every((r) => r.groups.includes('dns-events'))).toBe(true);
    // msg: narrows to messages holding the text, in any case.
    const byMsg = (await list('?filter=msg:smtp')).json<RulePage>();
    expect(byMsg.recordsTotal).toBeGreaterThan(0);
    expect(byMsg.data.every((r) => /smtp/i.test(r.msg))).toBe(true);
    // A free-text term matches group names too: no message says 'dns-events'.
    const byGroupName = (await list('?filter=dns-events')).json<RulePage>();
    expect(inGroup.recordsTotal).toBeGreaterThan(0);
    expect(byGroupName.data.map((r) => r.id)).toEqual(
      expect.arrayContaining(inGroup.data.map((r) => r.id)),
    );
    expect(byGroupName.data.every((r) => r.groups.some((g) => g.includes('dns-events')))).toBe(
      true,
    );
    expect((await list('?sortBy=text')).statusCode).toBe(422);
    expect((await list('?filter=text:x')).statusCode).toBe(422);
  });

  it('gives a page past others as that slice of the whole sorted, filtered list', async () => {
    const query = 'sortBy=msg&sortDesc=true&filter=proto:tcp';
    const whole = (await list(`?limit=100000&${query}`)).json<RulePage>();
    expect(whole.recordsTotal).toBeGreaterThan(40);
    const page = (await list(`?limit=20&offset=20&${query}`)).json<RulePage>();
    expect(page.recordsTotal).toBe(whole.recordsTotal);
    expect(page.data).toEqual(whole.data.slice(20, 40));
    expect(page.data.every((r) => r.proto === 'tcp' && r.groups.length > 0)).toBe(true);
  });

  it('gives full texts for a set of ids through /rulesmulti', async () => {
    const page = (await list('?limit=2&sortBy=sid')).json<RulePage>();
    const ids = page.data.map((r) => r.id);
    const response = await api(server.app, {
      method: 'POST',
      url: '/rulesmulti',
      headers: viewer,
      payload: { ids },
    });
    const data = response.json<{ data: { id: number; text: string; sid: number }[] }>().data;
    // The ids asked for, each once (in no particular order: the console keys them by sid).
    const byId = (a: number, b: number) => a - b;
    expect(data.map((r) => r.id).sort(byId)).toEqual([...ids].sort(byId));
    expect(data[0]?.text).toContain(`sid:${data[0]?.sid}`);
  });

  it("gives a rule's metadata, references and flowbits as its text says", async () => {
    const created = await api(server.app, {
      method: 'POST',
      url: '/rules/',
      headers: admin,
      payload: {
        text: 'alert tcp any any -> any 445 (msg:"Local: SMB probe"; flow:to_server; flowbits:set,smb.probe; flowbits:noalert; reference:cve,2017-0144; reference:url,example.org/smb; metadata:policy balanced-ips, signature_severity Major; sid:9900050; rev:2;)',
      },
    });
    expect(created.statusCode).toBe(201);
    const response = await api(server.app, {
      method: 'POST',
      url: '/rulesmulti',
      headers: viewer,
      payload: { ids: [created.json<{ id: number }>().id] },
    });
    expect(response.json<{ data: unknown[] }>().data).toEqual([
      expect.objectContaining({
        sid: 9900050,
        metadata: [
          { key: 'policy', value: 'balanced-ips' },
          { key: 'signature_severity', value: 'Major' },
        ],
        references: [
          { system: 'cve', id: '2017-0144' },
          { system: 'url', id: 'example.org/smb' },
        ],
        flowbits: ['set,smb.probe', 'noalert'],
      }),
    ]);
  });

  it('adds a custom rule validated by the parser, refuses bad ones and duplicates', async () => {
    const created = await api(server.app, {
      method: 'POST',
      url: '/rules/',
      headers: admin,
      payload: {
        text: 'alert http $EXTERNAL_NET any -> $HOME_NET any (msg:"Local: admin panel probe"; content:"/admin"; http_uri; sid:9900001; rev:1;)',
      },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      sid: 9900001,
      proto: 'http',
      groups: ['custom'],
      source: 'custom',
    });

    const bad = await api(server.app, {
      method: 'POST',
      url: '/rules/',
      headers: admin,
      payload: { text: 'alert tcp any any -> any any (msg:"no sid";)' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ msg: string }>().msg).toMatch(/^Invalid rule: column \d+: /);

    const duplicate = await api(server.app, {
      method: 'POST',
      url: '/rules/',
      headers: admin,
      payload: { text: 'alert tcp any any -> any any (msg:"again"; sid:9900001; rev:1;)' },
    });
    expect(duplicate.statusCode).toBe(409);
  });

  it('switches a rule to drop and disables it, keeping a valid text', async () => {
    const [rule] = (await list('?filter=sid:9900001')).json<RulePage>().data;
    const dropped = await api(server.app, {
      method: 'PUT',
      url: `/rules/${rule?.id}`,
      headers: admin,
      payload: { action: 'drop' },
    });
    expect(dropped.json()).toMatchObject({ action: 'drop', enabled: true });
    expect(dropped.json<{ text: string }>().text).toMatch(/^drop http /);
    const disabled = await api(server.app, {
      method: 'PUT',
      url: `/rules/${rule?.id}`,
      headers: admin,
      payload: { enabled: false },
    });
    expect(disabled.json<{ text: string; enabled: boolean }>()).toMatchObject({ enabled: false });
    expect(disabled.json<{ text: string }>().text).toMatch(/^# drop http /);
    const weird = await api(server.app, {
      method: 'PUT',
      url: `/rules/${rule?.id}`,
      headers: admin,
      payload: { action: 'explode' },
    });
    expect(weird.statusCode).toBe(422);
  });

  it('lets a Viewer read but not import or write', async () => {
    expect((await list('?limit=1', viewer)).statusCode).toBe(200);
    const imported = await postFiles(server.app, '/rules/import', viewer, [
      { name: 'x.rules', bytes: 'alert tcp any any -> any any (msg:"x"; sid:1;)' },
    ]);
    expect(imported.statusCode).toBe(403);
    const created = await api(server.app, {
      method: 'POST',
      url: '/rules/',
      headers: viewer,
      payload: { text: 'alert tcp any any -> any any (msg:"x"; sid:1;)' },
    });
    expect(created.statusCode).toBe(403);
    expect(
      (
        await api(server.app, {
          method: 'POST',
          url: '/groups/',
          headers: viewer,
          payload: { name: 'mine' },
        })
      ).statusCode,
    ).toBe(403);
  });

  it('keeps groups: create with rules, rename, add and remove rules, delete', async () => {
    const ids = (await list('?limit=3&sortBy=sid')).json<RulePage>().data.map((r) => r.id);
    const created = await api(server.app, {
      method: 'POST',
      url: '/groups/',
      headers: admin,
      payload: { name: 'Watch list', rule_ids: ids.slice(0, 2) },
    });
    expect(created.statusCode).toBe(201);
    const group = created.json<{ id: number; rule_count: number; kind: string }>();
    expect(group).toMatchObject({ rule_count: 2, kind: 'custom' });
    const updated = await api(server.app, {
      method: 'PUT',
      url: `/groups/${group.id}`,
      headers: admin,
      payload: { name: 'Watchlist', add_rule_ids: [ids[2]], remove_rule_ids: [ids[0]] },
    });
    expect(updated.json()).toMatchObject({ name: 'Watchlist', rule_count: 2 });
    const taken = await api(server.app, {
      method: 'POST',
      url: '/groups/',
      headers: admin,
      payload: { name: 'WATCHLIST' },
    });
    expect(taken.statusCode).toBe(409);
    const foreign = await api(server.app, {
      method: 'PUT',
      url: `/groups/${group.id}`,
      headers: admin,
      payload: { add_rule_ids: [999999] },
    });
    expect(foreign.statusCode).toBe(404);
    expect(
      (
        await api(server.app, { method: 'DELETE', url: `/groups/${group.id}`, headers: admin })
      ).json(),
    ).toEqual({ msg: 'Group deleted' });
    const search = await api(server.app, { url: '/groups/?filter=watch', headers: admin });
    expect(search.json<{ recordsTotal: number }>().recordsTotal).toBe(0);
  });

  it("keeps one organization's rules from another", async () => {
    const other = await signInOtherOrganization(server.app);
    expect((await list('', other)).json<RulePage>().recordsTotal).toBe(0);
    const [rule] = (await list('?limit=1')).json<RulePage>().data;
    expect((await api(server.app, { url: `/rules/${rule?.id}`, headers: other })).statusCode).toBe(
      404,
    );
    const multi = await api(server.app, {
      method: 'POST',
      url: '/rulesmulti',
      headers: other,
      payload: { ids: [rule?.id] },
    });
    expect(multi.json()).toEqual({ data: [] });
    expect(
      (
        await api(server.app, {
          method: 'PUT',
          url: `/rules/${rule?.id}`,
          headers: other,
          payload: { action: 'drop' },
        })
      ).statusCode,
    ).toBe(404);
  });
});
