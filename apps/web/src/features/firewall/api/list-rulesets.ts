import { queryOptions } from '@tanstack/react-query';
import type { FirewallRuleset, ListResponse } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';

/** Spec §7/§9: rulesets are listed with limit 99999, offset 0. */
export const RULESETS_LIMIT = 99_999;

export const rulesetsListKey = ['fwrulesets', 'list'] as const;

/** GET /fwruleset/?limit=99999&offset=0; searched and sorted in the browser. */
export const rulesetsListQueryOptions = queryOptions({
  queryKey: rulesetsListKey,
  // Device counts change with every assignment made elsewhere: read again on each visit.
  staleTime: 0,
  queryFn: ({ signal }) =>
    call(() =>
      http
        .get('fwruleset/', {
          searchParams: { limit: String(RULESETS_LIMIT), offset: '0' },
          signal,
        })
        .json<ListResponse<FirewallRuleset>>(),
    ),
});

/** A saved ruleset replaces the one with the same id in the list (spec §4), or joins it. */
export function mergeRuleset(
  list: ListResponse<FirewallRuleset> | undefined,
  ruleset: FirewallRuleset,
): ListResponse<FirewallRuleset> | undefined {
  if (list === undefined) return list;
  const exists = list.data.some((r) => r.id === ruleset.id);
  return exists
    ? { ...list, data: list.data.map((r) => (r.id === ruleset.id ? ruleset : r)) }
    : { data: [...list.data, ruleset], recordsTotal: list.recordsTotal + 1 };
}
