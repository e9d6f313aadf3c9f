import type { FirewallRule } from '@palisade/contract';
import { FirewallRule as FirewallRuleSchema } from '@palisade/contract';
import { describe, expect, it } from 'vitest';
import { sampleRulesFiles } from '../test/corpus.js';
import { firewallRulesDiff, ruleKey, rulesDiff, textDiff, variablesDiff } from './render-diff.js';

/** Real rule lines (the corpus's Suricata rules, or the project's samples without it). */
function realRules(count: number): string[] {
  const lines: string[] = [];
  for (const file of sampleRulesFiles()) {
    const text = typeof file.bytes === 'string' ? file.bytes : Buffer.from(file.bytes).toString();
    for (const line of text.split('\n')) {
      if (/^(alert|drop|pass|reject)\s/.test(line) && ruleKey(line) !== null) lines.push(line);
      if (lines.length === count) return lines;
    }
  }
  return lines;
}

const fw = (rule: Partial<FirewallRule>): FirewallRule =>
  FirewallRuleSchema.parse({ chain: 'input', action: 'accept', ...rule });

describe('render diffs', () => {
  it('compares rules files rule by rule, keyed by gid:sid', () => {
    const rules = realRules(40);
    expect(rules.length).toBe(40);
    const before = `${rules.slice(0, 30).join('\n')}\n`;
    const changedLine = rules[5]?.replace(/msg:"/, 'msg:"CHANGED ') ?? '';
    const after = `${[...rules.slice(0, 5), changedLine, ...rules.slice(6, 29), ...rules.slice(30, 32)].join('\n')}\n`;
    const diff = rulesDiff(before, after);
    expect(diff.counts).toEqual({ added: 2, removed: 1, changed: 1, unchanged: 28 });
    expect(diff.added.map((a) => a.key)).toEqual(
      [rules[30], rules[31]].map((line) => ruleKey(line ?? '')).sort(),
    );
    expect(diff.removed[0]?.key).toBe(ruleKey(rules[29] ?? ''));
    const changed = diff.changed[0];
    expect(changed?.key).toBe(ruleKey(rules[5] ?? ''));
    expect(changed?.old).toBe(rules[5]);
    expect(changed?.new).toBe(changedLine);
    expect(changed?.diff.filter((p) => p.added).map((p) => p.value.trim())).toContain('CHANGED');
    expect(rulesDiff(before, before).counts.unchanged).toBe(30);
  });

  it('reads gid and keeps the later of a rule given twice', () => {
    expect(ruleKey('alert ip any any -> any any (msg:"x"; gid:3; sid:12; rev:1;)')).toBe('3:12');
    expect(ruleKey('# a comment without sid')).toBeNull();
    const diff = rulesDiff(
      'alert ip any any -> any any (msg:"a"; sid:1;)\n',
      'alert ip any any -> any any (msg:"b"; sid:1;)\nalert ip any any -> any any (msg:"c"; sid:1;)\n',
    );
    expect(diff.changed[0]?.new).toContain('"c"');
  });

  it('caps the listed rules but keeps whole counts', () => {
    const rules = realRules(30);
    const diff = rulesDiff('', rules.join('\n'), { limit: 10 });
    expect(diff.added).toHaveLength(10);
    expect(diff.counts.added).toBe(30);
    expect(diff.truncated).toBe(true);
  });

  it('gives a unified text diff with line counts', () => {
    const diff = textDiff('a\nb\nc\n', 'a\nB\nc\nd\n');
    expect(diff.added).toBe(2);
    expect(diff.removed).toBe(1);
    expect(diff.unified).toContain('-b');
    expect(diff.unified).toContain('+B');
    expect(diff.unified).toContain('+d');
    expect(textDiff('same', 'same').unified).toBe('');
  });

  it('compares firewall rules in order, pairing a replaced rule as changed', () => {
    const ssh = fw({ protocol: 'tcp', destination_ports: '22' });
    const web = fw({ protocol: 'tcp', destination_ports: '80' });
    const dns = fw({ protocol: 'udp', destination_ports: '53' });
    const policies = { input: 'drop', forward: 'drop', output: 'accept' } as const;
    const diff = firewallRulesDiff(
      { rules: [ssh, web], policies },
      {
        rules: [ssh, { ...web, destination_ports: '443' }, dns],
        policies: { ...policies, input: 'accept' },
      },
    );
    expect(diff.counts).toEqual({ added: 1, removed: 0, changed: 1, unchanged: 1 });
    expect(diff.changed[0]).toMatchObject({ old_position: 2, position: 2 });
    expect(diff.changed[0]?.new).toContain('dport 443');
    expect(diff.added[0]).toMatchObject({ position: 3 });
    expect(diff.policies).toEqual([{ chain: 'input', old: 'drop', new: 'accept' }]);
  });

  it('compares variables by name', () => {
    expect(
      variablesDiff(
        { HOME_NET: '[10.0.0.0/8]', DNS_SERVERS: '$HOME_NET' },
        { HOME_NET: '[10.1.0.0/16]', HTTP_PORTS: '80' },
      ),
    ).toEqual({
      added: [{ name: 'HTTP_PORTS', value: '80' }],
      removed: [{ name: 'DNS_SERVERS', value: '$HOME_NET' }],
      changed: [{ name: 'HOME_NET', old: '[10.0.0.0/8]', new: '[10.1.0.0/16]' }],
    });
  });
});
