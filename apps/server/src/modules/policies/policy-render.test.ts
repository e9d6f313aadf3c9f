import { describe, expect, it } from 'vitest';
import { parseConfFile } from './policy-matchers.js';
import { renderPolicy, renderThresholds, type RenderableRule } from './policy-render.js';

const rule = (sid: number, text: string, extra: Partial<RenderableRule> = {}): RenderableRule => ({
  id: sid,
  gid: 1,
  sid,
  text,
  enabled: !text.startsWith('#'),
  action: text.replace(/^#\s*/, '').split(' ')[0] ?? 'alert',
  source: 'local.rules',
  metadata: [],
  ...extra,
});

const rules = [
  rule(3, 'alert tcp any any -> any 23 (msg:"telnet"; sid:3; rev:1;)'),
  rule(1, 'alert tcp any any -> any 22 (msg:"ssh heartbleed probe"; sid:1; rev:1;)', {
    source: 'emerging-dos.rules',
  }),
  rule(2, '# alert udp any any -> any 53 (msg:"dns"; sid:2; rev:1;)', {
    metadata: [{ key: 'policy', value: 'balanced-ips' }],
  }),
];
const render = (extra: Partial<Parameters<typeof renderPolicy>[0]> = {}) =>
  renderPolicy({
    rules,
    overrides: new Map(),
    matchers: [],
    thresholds: [],
    resolveFlowbits: true,
    ...extra,
  });

describe('renderPolicy', () => {
  it('renders enabled rules only, ordered by gid and sid, whatever the input order', async () => {
    const output = await render();
    expect(output.rules).toBe(
      'alert tcp any any -> any 22 (msg:"ssh heartbleed probe"; sid:1; rev:1;)\nalert tcp any any -> any 23 (msg:"telnet"; sid:3; rev:1;)\n',
    );
    expect(output.ruleCount).toBe(2);
    expect(
      (
        await renderPolicy({
          rules: [...rules].reverse(),
          overrides: new Map(),
          matchers: [],
          thresholds: [],
          resolveFlowbits: true,
        })
      ).rules,
    ).toBe(output.rules);
  });

  it('applies per-rule overrides: enable, disable, alert→drop', async () => {
    const output = await render({
      overrides: new Map([
        [2, 'enable'],
        [3, 'disable'],
        [1, 'drop'],
      ] as const),
    });
    expect(output.rules.split('\n').filter(Boolean)).toEqual([
      'drop tcp any any -> any 22 (msg:"ssh heartbleed probe"; sid:1; rev:1;)',
      'alert udp any any -> any 53 (msg:"dns"; sid:2; rev:1;)',
    ]);
  });

  it('applies suricata-update matchers in its order, then lets overrides win', async () => {
    const matchers = [
      ...(await parseConfFile('enable', 'metadata: policy balanced-ips\n')).matchers,
      ...(await parseConfFile('disable', '# comment\ngroup:emerging-dos\n')).matchers,
      ...(await parseConfFile('drop', 're:TELNET\n')).matchers,
      ...(await parseConfFile('modify', '2 "any 53" "any [53,5353]"\n')).matchers,
    ];
    expect((await render({ matchers })).rules.split('\n').filter(Boolean)).toEqual([
      'alert udp any any -> any [53,5353] (msg:"dns"; sid:2; rev:1;)',
      'drop tcp any any -> any 23 (msg:"telnet"; sid:3; rev:1;)',
    ]);
    expect((await render({ matchers, overrides: new Map([[1, 'enable']]) })).ruleCount).toBe(3);
  });

  it("reads modify.conf replacements as suricata-update does (\\1, \\g<name>, Oinkmaster's ${1})", async () => {
    const conf = '2 "(udp) (any) any -> any (53)" "\\1 \\g<2> 1024: -> any [${3},5353]"';
    const { matchers, errors } = await parseConfFile('modify', `${conf}\n`);
    expect(errors).toEqual([]);
    const enabled = (await parseConfFile('enable', '2\n')).matchers;
    expect((await render({ matchers: [...enabled, ...matchers] })).rules).toContain(
      'alert udp any 1024: -> any [53,5353]',
    );
    const bad = await parseConfFile('modify', '2 "(any)" "\\2"\n');
    expect(bad.errors).toEqual([
      { line: 1, msg: 'bad replacement "\\2": invalid group reference 2' },
    ]);
  });

  it('skips a modification that would break a rule, and says so', async () => {
    const { matchers } = await parseConfFile('modify', '3 "\\(msg" "(((msg"\n');
    const output = await render({ matchers });
    expect(output.rules).toContain('(msg:"telnet"');
    expect(output.warnings[0]).toContain('1:3');
  });
});

describe('conf files', () => {
  it('strip the spaces around a re: pattern, as suricata-update does', async () => {
    const { matchers, errors } = await parseConfFile('drop', 're:  telnet  \n');
    expect(errors).toEqual([]);
    expect((await render({ matchers })).rules).toContain('drop tcp any any -> any 23');
  });

  it('name the line of every bad entry', async () => {
    const parsed = await parseConfFile('disable', '1:2000\nnonsense here\nre:([\n');
    expect(parsed.matchers).toEqual([{ kind: 'disable', matcher: '1:2000' }]);
    expect(parsed.errors.map((e) => e.line)).toEqual([2, 3]);
  });

  it('read long runs of spaces in linear time, and refuse overlong lines', async () => {
    const spaces = ' '.repeat(3000);
    const huge = ' '.repeat(1_000_000);
    const parsed = await parseConfFile(
      'modify',
      `1 "a" "b"\nx${spaces}y\n2${spaces}"c"${spaces}"d"\nx${huge}y\n`,
    );
    expect(parsed.errors).toEqual([
      { line: 2, msg: 'expected: <matcher> "<from>" "<to>"' },
      { line: 4, msg: 'longer than 8000 characters' },
    ]);
    expect(parsed.matchers.map((m) => [m.matcher, m.from, m.to])).toEqual([
      ['1', 'a', 'b'],
      ['2', 'c', 'd'],
    ]);
  });
});

describe('renderThresholds', () => {
  it("writes Suricata's threshold.config syntax", () => {
    expect(
      renderThresholds([
        {
          kind: 'suppress',
          gid: 1,
          sid: 2001,
          track: 'by_src',
          ip: '10.1.1.0/24',
          comment: 'scanner',
        },
        {
          kind: 'threshold',
          gid: 1,
          sid: 2002,
          type: 'limit',
          track: 'by_dst',
          count: 1,
          seconds: 60,
        },
        {
          kind: 'rate_filter',
          gid: 1,
          sid: 2003,
          track: 'by_rule',
          count: 10,
          seconds: 1,
          new_action: 'drop',
          timeout: 30,
        },
      ]),
    ).toBe(
      '# scanner\n' +
        'suppress gen_id 1, sig_id 2001, track by_src, ip 10.1.1.0/24\n' +
        'threshold gen_id 1, sig_id 2002, type limit, track by_dst, count 1, seconds 60\n' +
        'rate_filter gen_id 1, sig_id 2003, track by_rule, count 10, seconds 1, new_action drop, timeout 30\n',
    );
  });
});
