import { queryOptions } from '@tanstack/react-query';
import type { RuleDetail } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { rulesCache } from './rules-cache';

/** POST /rulesmulti {ids}: full rules, text included; the cache by sid keeps their text. */
export async function fetchRules(ids: number[], signal?: AbortSignal): Promise<RuleDetail[]> {
  if (ids.length === 0) return [];
  const { data } = await call(() =>
    http.post('rulesmulti', { json: { ids }, signal }).json<{ data: RuleDetail[] }>(),
  );
  rulesCache.putDetails(data);
  return data;
}

/** One rule's full text, on demand (the rules table's "Show text"). */
export const ruleDetailQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['rules', 'detail', id],
    queryFn: async ({ signal }) => {
      const [rule] = await fetchRules([id], signal);
      if (rule === undefined) throw new Error(`rule ${id} not found`);
      return rule;
    },
  });
