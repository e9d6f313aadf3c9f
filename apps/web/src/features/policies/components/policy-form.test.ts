import { describe, expect, it } from 'vitest';
import { PolicyForm, policyFormValues, withOverrides } from './policy-form';

describe('policy form', () => {
  it('starts empty for a new policy and is refused without a name', () => {
    const values = policyFormValues(undefined);
    expect(values.group_ids).toEqual([]);
    expect(PolicyForm.safeParse(values).success).toBe(false);
    expect(PolicyForm.safeParse({ ...values, name: 'Perimeter' }).success).toBe(true);
  });

  it('keeps one override per rule, the latest action winning', () => {
    const start = [
      { rule_id: 1, action: 'disable' as const },
      { rule_id: 2, action: 'enable' as const },
    ];
    expect(withOverrides(start, [1, 3], 'drop')).toEqual([
      { rule_id: 2, action: 'enable' },
      { rule_id: 1, action: 'drop' },
      { rule_id: 3, action: 'drop' },
    ]);
  });

  it('keeps the end date and reason of an override whose action changes', () => {
    const start = [
      {
        rule_id: 1,
        action: 'disable' as const,
        expires_at: '2026-12-01T00:00:00.000Z',
        reason: 'INC-1',
      },
    ];
    expect(withOverrides(start, [1], 'drop')).toEqual([
      { rule_id: 1, action: 'drop', expires_at: '2026-12-01T00:00:00.000Z', reason: 'INC-1' },
    ]);
  });
});
