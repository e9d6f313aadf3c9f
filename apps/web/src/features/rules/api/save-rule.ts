import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RuleDetail } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { groupsListKey } from './list-groups';
import { rulesListKey } from './list-rules';
import { rulesCache } from './rules-cache';

export interface RuleSave {
  /** Absent: a new custom rule (POST /rules/); present: PUT /rules/{id}. */
  id?: number;
  text: string;
  group_ids?: number[];
}

/** POST /rules/ or PUT /rules/{id} with the rule's text; the server's parser validates it. */
export function useSaveRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, text, group_ids }: RuleSave) =>
      call(() =>
        id === undefined
          ? http.post('rules/', { json: { text, group_ids } }).json<RuleDetail>()
          : http.put(`rules/${id}`, { json: { text } }).json<RuleDetail>(),
      ),
    onSuccess: async (rule) => {
      rulesCache.putDetails([rule]);
      client.setQueryData(['rules', 'detail', rule.id], rule);
      await Promise.all([
        client.invalidateQueries({ queryKey: rulesListKey }),
        client.invalidateQueries({ queryKey: groupsListKey }),
      ]);
    },
  });
}

/** PUT /rules/{id} {enabled}: switches a rule on or off in its file's set. */
export function useSetRuleEnabled() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: number; enabled: boolean }) =>
      call(() => http.put(`rules/${id}`, { json: { enabled } }).json<RuleDetail>()),
    onSuccess: async (rule) => {
      rulesCache.putDetails([rule]);
      client.setQueryData(['rules', 'detail', rule.id], rule);
      await client.invalidateQueries({ queryKey: rulesListKey });
    },
  });
}
