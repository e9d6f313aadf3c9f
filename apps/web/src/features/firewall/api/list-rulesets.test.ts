import { describe, expect, it } from 'vitest';
import type { FirewallRuleset } from '@palisade/contract';
import { mergeRuleset } from './list-rulesets';

const ruleset = (id: number, name: string): FirewallRuleset => ({
  id,
  name,
  description: '',
  policies: { input: 'drop', forward: 'drop', output: 'accept' },
  rules: [],
  device_count: 0,
  updated_at: '2026-01-01T00:00:00Z',
});

describe('mergeRuleset', () => {
  it('replaces the ruleset with the same id in place', () => {
    const list = { data: [ruleset(1, 'a'), ruleset(2, 'b')], recordsTotal: 2 };
    expect(mergeRuleset(list, ruleset(1, 'A'))).toEqual({
      data: [ruleset(1, 'A'), ruleset(2, 'b')],
      recordsTotal: 2,
    });
  });

  it('adds a new one at the end', () => {
    const list = { data: [ruleset(1, 'a')], recordsTotal: 1 };
    expect(mergeRuleset(list, ruleset(3, 'c'))?.data.map((r) => r.id)).toEqual([1, 3]);
    expect(mergeRuleset(undefined, ruleset(3, 'c'))).toBeUndefined();
  });
});
