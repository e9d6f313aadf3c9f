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
interface Render {
  rules: string;
  rule_count: number;
}
interface Failure {
  msg: string;
  code: string;
  details: { field: string; msg: string }[];
}

// Rules disabled in their file whose messages are long runs of `a`, without a `b` anywhere in
// the text; every tenth ends in `B`. `re:(a|a)*b` enables exactly those: a backtracking engine
// takes about 2^200 steps on each of the others.
const RULES = 300;
const LONG_A = 'a'.repeat(200);
const hostileRules = Array.from({ length: RULES }, (_, i) => {
  const sid = 6_000_000 + i;
  const msg = i % 10 === 0 ? `${LONG_A}B` : LONG_A;
  return `# alert tcp any any -> any any (msg:"${msg}"; sid:${sid}; rev:1;)`;
}).join('\n');

describe('user-supplied patterns', () => {
  let server: TestServer;
  let admin: Headers;
  let groupId: number;

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    api(server.app, {
      method,
      url,
      headers: admin,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const upload = async (url: string, files: { name: string; bytes: string }[]) => {
    return postFiles(server.app, url, admin, files);
  };
  const newPolicy = async (name: string) => {
    const created = await call('POST', '/policies/', { name, group_ids: [groupId] });
    expect(created.statusCode).toBe(201);
    return created.json<{ id: number }>().id;
  };

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const imported = await upload('/rules/import', [{ name: 'aaa.rules', bytes: hostileRules }]);
    expect(imported.statusCode).toBe(200);
    const groups = (await call('GET', '/groups/')).json<{ data: { id: number; name: string }[] }>()
      .data;
    groupId = groups.find((g) => g.name === 'aaa')?.id ?? -1;
  });
  afterAll(() => server.close());

  it("renders re:(a|a)*b over a long run of a's correctly, without backtracking", async () => {
    const id = await newPolicy('Hostile');
    // Every rule is disabled in its file: nothing renders before the enable.conf.
    expect((await call('GET', `/policies/${id}/render`)).json<Render>().rule_count).toBe(0);
    // A hundred and fifty distinct hostile lines: as many passes over the rules in one render.
    const lines = ['re:(a|a)*b', ...Array.from({ length: 149 }, (_, i) => `re:(a|a)*b|z${i}`)];
    const uploaded = await upload(`/policies/${id}/upload`, [
      { name: 'enable.conf', bytes: `${lines.join('\n')}\n` },
    ]);
    expect(uploaded.statusCode).toBe(200);
    expect(uploaded.json()).toMatchObject({ added: { enable: 150 } });

    // With a backtracking engine each of these lines would take 2^n steps on the long run of
    // a's: the render would never end (the test times out). How long other requests wait
    // meanwhile depends on the machine's load, so no wall time is asserted here.
    const render = (await call('GET', `/policies/${id}/render`)).json<Render>();

    // Exactly the rules with a B, in sid order: what Python's re.search(…, re.I) would enable.
    expect(render.rule_count).toBe(RULES / 10);
    const sids = render.rules
      .trim()
      .split('\n')
      .map((line) => Number(/sid:(\d+);/.exec(line)?.[1]));
    expect(sids).toEqual(Array.from({ length: RULES / 10 }, (_, i) => 6_000_000 + i * 10));
    expect(render.rules).toContain(`alert tcp any any -> any any (msg:"${LONG_A}B"; sid:6000000;`);
  });

  it('takes Python spellings suricata-update users write', async () => {
    const id = await newPolicy('Python');
    const uploaded = await upload(`/policies/${id}/upload`, [
      { name: 'enable.conf', bytes: 're:(?P<tail>a{200})B\\Z\n' },
      { name: 'modify.conf', bytes: 're:sid:6000010; "msg:\\"(a+)B" "msg:\\"\\1C"\n' },
    ]);
    expect(uploaded.statusCode).toBe(200);
    const render = (await call('GET', `/policies/${id}/render`)).json<Render>();
    // `\Z` is the end of the text: no rule ends in B, so nothing is enabled that way …
    expect(render.rule_count).toBe(0);
    const anywhere = await call('PUT', `/policies/${id}`, {
      matchers: [
        { kind: 'enable', matcher: 're:(?P<tail>a{200})B' },
        { kind: 'modify', matcher: 're:sid:6000010;', from: 'msg:"(a+)B', to: 'msg:"\\1C' },
      ],
    });
    expect(anywhere.statusCode).toBe(200);
    const modified = (await call('GET', `/policies/${id}/render`)).json<Render>();
    expect(modified.rule_count).toBe(RULES / 10);
    expect(modified.rules).toContain(`(msg:"${LONG_A}C"; sid:6000010;`);
    expect(modified.rules).toContain(`(msg:"${LONG_A}B"; sid:6000020;`);
  });

  it('refuses a pattern that cannot run safely with a 422 naming it and its line', async () => {
    const id = await newPolicy('Refused');
    const backreference = await upload(`/policies/${id}/upload`, [
      { name: 'enable.conf', bytes: '# ok\n6000000\nre:(a)\\1b\n' },
    ]);
    expect(backreference.statusCode).toBe(422);
    const refused = backreference.json<Failure>();
    expect(refused.code).toBe('validation_failed');
    expect(refused.msg).toMatch(/^enable\.conf line 3: bad regular expression "\(a\)\\1b": /);
    expect(refused.msg).toContain('backreferences and lookaround');
    expect(refused.details.map((d) => d.field)).toEqual(['enable.conf:3']);

    const modify = await upload(`/policies/${id}/upload`, [
      { name: 'modify.conf', bytes: '6000000 "msg(?=:)" "x"\n' },
    ]);
    expect(modify.statusCode).toBe(422);
    expect(modify.json<Failure>().msg).toMatch(
      /^modify\.conf line 1: bad regular expression "msg\(\?=:\)": /,
    );

    const lookahead = await call('PUT', `/policies/${id}`, {
      matchers: [
        { kind: 'enable', matcher: '6000000' },
        { kind: 'disable', matcher: 're:a(?!a)' },
      ],
    });
    expect(lookahead.statusCode).toBe(422);
    const refusedLookahead = lookahead.json<Failure>();
    expect(refusedLookahead.code).toBe('validation_failed');
    expect(refusedLookahead.msg).toContain('bad regular expression "a(?!a)"');
    expect(refusedLookahead.details.map((d) => d.field)).toEqual(['matchers.1.matcher']);

    const huge = await call('PUT', `/policies/${id}`, {
      matchers: [{ kind: 'enable', matcher: 're:[a-z]{1000}[0-9]{1000}' }],
    });
    expect(huge.statusCode).toBe(422);
    expect(huge.json<Failure>().msg).toContain('"[a-z]{1000}[0-9]{1000}": too complex');

    // Nothing of it was kept.
    const policy = (await call('GET', `/policies/${id}`)).json<{ matchers: unknown[] }>();
    expect(policy.matchers).toEqual([]);
  });
});
