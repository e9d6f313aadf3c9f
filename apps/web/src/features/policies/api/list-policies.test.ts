import { describe, expect, it } from 'vitest';
import type { Policy } from '@palisade/contract';
import { dropPolicy, mergePolicy } from './list-policies';

const policy = (id: number, name: string): Policy => ({
  id,
  name,
  description: '',
  groups: [],
  rule_count: 0,
  removed_count: 0,
  overrides: [],
  thresholds: [],
  matchers: [],
  version: 1,
  restricted: false,
  resolve_flowbits: true,
  editors: [],
  editor_emails: [],
  can_edit: true,
  updated_at: '2026-01-01T00:00:00.000Z',
});

describe('local policy list (spec §4)', () => {
  const list = { data: [policy(1, 'a'), policy(2, 'b')], recordsTotal: 2 };

  it('merges a saved policy by id, or adds a new one', () => {
    expect(mergePolicy(list, policy(2, 'renamed'))?.data.map((p) => p.name)).toEqual([
      'a',
      'renamed',
    ]);
    const added = mergePolicy(list, policy(3, 'c'));
    expect(added?.data).toHaveLength(3);
    expect(added?.recordsTotal).toBe(3);
    expect(mergePolicy(undefined, policy(3, 'c'))).toBeUndefined();
  });

  it('removes a deleted policy locally', () => {
    expect(dropPolicy(list, 1)).toEqual({ data: [policy(2, 'b')], recordsTotal: 1 });
    expect(dropPolicy(list, 9)).toEqual(list);
  });
});
