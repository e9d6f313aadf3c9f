import { describe, expect, it } from 'vitest';
import type { RuleGroup } from '@palisade/contract';
import { mergeGroup } from './save-group';

const group = (id: number, name: string, rule_count = 0): RuleGroup => ({
  id,
  name,
  description: '',
  kind: 'custom',
  source_id: null,
  rule_count,
  enabled_count: rule_count,
  updated_at: '2026-01-01T00:00:00.000Z',
});

describe('mergeGroup (spec §4: merged into the local list by id)', () => {
  const list = { data: [group(1, 'alpha'), group(2, 'gamma')], recordsTotal: 2 };

  it('replaces the group with the same id', () => {
    const merged = mergeGroup(list, group(2, 'gamma', 40));
    expect(merged?.data.map((g) => g.rule_count)).toEqual([0, 40]);
    expect(merged?.recordsTotal).toBe(2);
  });

  it('adds a new group in name order', () => {
    const merged = mergeGroup(list, group(3, 'beta'));
    expect(merged?.data.map((g) => g.name)).toEqual(['alpha', 'beta', 'gamma']);
    expect(merged?.recordsTotal).toBe(3);
  });
});
