import { queryOptions } from '@tanstack/react-query';
import type { RuleSummary } from '@palisade/contract';

/** How the console reads rules by id (the rules feature's /rulesmulti, given by the app). */
export type FetchRules = (ids: number[], signal?: AbortSignal) => Promise<RuleSummary[]>;

/** The rules a policy's overrides name, to show their sid and message. */
export const overrideRulesQueryOptions = (ids: number[], fetchRules: FetchRules) =>
  queryOptions({
    queryKey: ['policies', 'override-rules', [...ids].sort((a, b) => a - b)],
    queryFn: async ({ signal }) => {
      const rules = await fetchRules(ids, signal);
      return new Map(rules.map((rule) => [rule.id, rule]));
    },
    enabled: ids.length > 0,
  });
