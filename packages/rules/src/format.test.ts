import { describe, expect, it } from 'vitest';
import { buildRuleText, formatRule, parseRule, ruleOptions } from './index.js';
import type { Rule } from './index.js';

function parsed(text: string): Rule {
  const { rule } = parseRule(text);
  if (rule === null) throw new Error(`not a rule: ${text}`);
  return rule;
}

const SNORT2 =
  'alert tcp $HOME_NET 2589 -> $EXTERNAL_NET any (msg:"MALWARE-BACKDOOR - Dagger_1.4.0"; flow:to_client,established; content:"2|00 00 00 06 00 00 00|Drives|24 00|"; depth:16; metadata:ruleset community; classtype:misc-activity; sid:105; rev:14;)';
const CONTINUED =
  'alert dnp3 any any -> any any (msg:"SURICATA DNP3 Request flood detected"; \\\n' +
  '      app-layer-event:dnp3.flooded; classtype:protocol-command-decode; sid:2270000; rev:2;)';

describe('formatRule', () => {
  it.each([
    SNORT2,
    `# ${SNORT2}`,
    `##${SNORT2}`,
    `  ${SNORT2}  `,
    CONTINUED,
    'alert http ( msg:"x"; sid:1; )',
  ])('gives back an unmodified rule exactly: %s', (text) => {
    expect(formatRule(parsed(text))).toBe(text);
  });

  it('changes the action in place', () => {
    const text = formatRule({ ...parsed(SNORT2), action: 'drop' });
    expect(text).toBe(SNORT2.replace(/^alert/, 'drop'));
    expect(parsed(text)).toMatchObject({ action: 'drop', enabled: true, sid: 105 });
  });

  it('disables and enables a rule', () => {
    const disabled = formatRule({ ...parsed(SNORT2), enabled: false });
    expect(disabled).toBe(`# ${SNORT2}`);
    expect(parsed(disabled).enabled).toBe(false);
    const enabled = formatRule({ ...parsed(`#  ${SNORT2}`), enabled: true });
    expect(enabled).toBe(SNORT2);
  });

  it('changes both on a disabled rule, keeping its comment marker', () => {
    const text = formatRule({ ...parsed(`## ${SNORT2}`), action: 'sdrop' });
    expect(text).toBe(`## ${SNORT2.replace(/^alert/, 'sdrop')}`);
    expect(parsed(text)).toMatchObject({ action: 'sdrop', enabled: false });
  });

  it('joins a continued rule onto one line when disabling it', () => {
    const rule = parsed(CONTINUED);
    const text = formatRule({ ...rule, enabled: false, action: 'drop' });
    expect(text.includes('\n')).toBe(false);
    expect(text.startsWith('# drop dnp3 any any')).toBe(true);
    const again = parsed(text);
    expect(again).toMatchObject({ enabled: false, action: 'drop', sid: 2270000 });
    expect(ruleOptions(again)).toEqual(ruleOptions(rule));
  });

  it('joins a rule continued over carriage-return lines too', () => {
    const rule = parsed('alert ip any any -> any any (sid:3; \\\r  rev:1;)');
    const text = formatRule({ ...rule, enabled: false });
    expect(text).toBe('# alert ip any any -> any any (sid:3;    rev:1;)');
    expect(parsed(text)).toMatchObject({ enabled: false, sid: 3, rev: 1 });
  });

  it('joins a comment continued onto a rule when editing it', () => {
    const rule = parsed('# \\\nalert ip any any -> any any (sid:4;)');
    expect(formatRule(rule)).toBe(rule.text);
    expect(formatRule({ ...rule, enabled: true })).toBe('alert ip any any -> any any (sid:4;)');
    expect(formatRule({ ...rule, action: 'drop' })).toBe('#  drop ip any any -> any any (sid:4;)');
  });

  it('keeps the lines of a continued rule when only the action changes', () => {
    const text = formatRule({ ...parsed(CONTINUED), action: 'reject' });
    expect(text).toBe(CONTINUED.replace(/^alert/, 'reject'));
  });
});

describe('buildRuleText', () => {
  it('writes a rule from its fields that parses back to them', () => {
    const rule = parsed(SNORT2);
    const text = buildRuleText({
      ...rule,
      options: ruleOptions(rule),
      enabled: false,
      action: 'drop',
    });
    expect(text).toBe(`# drop${SNORT2.slice('alert'.length)}`);
    const again = parsed(text);
    expect(ruleOptions(again)).toEqual(ruleOptions(rule));
    expect(again).toMatchObject({ enabled: false, action: 'drop', source: rule.source });
  });

  it('writes header-less rules', () => {
    const text = buildRuleText({
      enabled: true,
      action: 'alert',
      protocol: 'http',
      source: null,
      direction: null,
      destination: null,
      options: [
        { keyword: 'msg', value: '"x"' },
        { keyword: 'nocase', value: null },
        { keyword: 'sid', value: '1' },
      ],
    });
    expect(text).toBe('alert http (msg:"x"; nocase; sid:1;)');
    expect(parsed(text).sid).toBe(1);
  });
});
