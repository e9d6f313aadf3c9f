import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ListResponse, MessageResponse, RuleGroup } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { groupsListKey } from './list-groups';

/** DELETE /groups/{id}; the group is then removed locally (spec §4). 409 while a policy uses it. */
export function useDeleteGroup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(() => http.delete(`groups/${id}`).json<MessageResponse>()),
    onSuccess: (_answer, id) =>
      client.setQueryData<ListResponse<RuleGroup>>(groupsListKey, (list) =>
        list === undefined
          ? list
          : { data: list.data.filter((g) => g.id !== id), recordsTotal: list.recordsTotal - 1 },
      ),
  });
}
