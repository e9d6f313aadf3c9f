import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ListResponse, RuleGroup } from '@palisade/contract';
import type { z } from 'zod';
import type { RuleGroupCreate, RuleGroupUpdate } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { groupsListKey } from './list-groups';
import { rulesListKey } from './list-rules';

export type GroupSave =
  | { id?: undefined; body: z.input<typeof RuleGroupCreate> }
  | { id: number; body: z.input<typeof RuleGroupUpdate> };

/** Merges a saved group into the loaded list by id (spec §4), keeping the name order. */
export function mergeGroup(
  list: ListResponse<RuleGroup> | undefined,
  group: RuleGroup,
): ListResponse<RuleGroup> | undefined {
  if (list === undefined) return list;
  const exists = list.data.some((g) => g.id === group.id);
  const data = exists
    ? list.data.map((g) => (g.id === group.id ? group : g))
    : [...list.data, group].sort((a, b) => a.name.localeCompare(b.name));
  return { data, recordsTotal: list.recordsTotal + (exists ? 0 : 1) };
}

/** POST /groups/ or PUT /groups/{id}; the answer is merged into the list by id. */
export function useSaveGroup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (save: GroupSave) =>
      call(() =>
        save.id === undefined
          ? http.post('groups/', { json: save.body }).json<RuleGroup>()
          : http.put(`groups/${save.id}`, { json: save.body }).json<RuleGroup>(),
      ),
    onSuccess: async (group, save) => {
      client.setQueryData<ListResponse<RuleGroup>>(groupsListKey, (list) =>
        mergeGroup(list, group),
      );
      const membership =
        save.id !== undefined &&
        (save.body.rule_ids ?? save.body.add_rule_ids ?? save.body.remove_rule_ids) !== undefined;
      if (save.id === undefined || membership)
        await client.invalidateQueries({ queryKey: rulesListKey });
    },
  });
}
