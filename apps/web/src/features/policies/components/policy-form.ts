import { PolicyWrite, type Policy } from '@palisade/contract';
import type { z } from 'zod';

/** The editor's form: a whole policy, validated by the contract's PolicyWrite. */
export const PolicyForm = PolicyWrite;
export type PolicyFormInput = z.input<typeof PolicyForm>;
export type PolicyFormValues = z.output<typeof PolicyForm>;

export function policyFormValues(policy: Policy | undefined): PolicyFormValues {
  return {
    name: policy?.name ?? '',
    description: policy?.description ?? '',
    group_ids: policy?.groups.map((g) => g.id) ?? [],
    overrides: policy?.overrides ?? [],
    thresholds: policy?.thresholds ?? [],
    matchers: policy?.matchers ?? [],
    restricted: policy?.restricted ?? false,
    resolve_flowbits: policy?.resolve_flowbits ?? true,
    editors: policy?.editors ?? [],
  };
}

/** Sets one override per rule: a new action for a rule replaces its old one. */
export function withOverrides(
  current: PolicyFormValues['overrides'],
  ruleIds: number[],
  action: PolicyFormValues['overrides'][number]['action'],
): PolicyFormValues['overrides'] {
  const ids = new Set(ruleIds);
  // A new action keeps the override's end date and reason.
  const existing = new Map(current.map((o) => [o.rule_id, o]));
  return [
    ...current.filter((o) => !ids.has(o.rule_id)),
    ...ruleIds.map((rule_id) => ({ ...existing.get(rule_id), rule_id, action })),
  ];
}
