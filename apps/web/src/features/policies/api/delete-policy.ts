import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ListResponse, MessageResponse, Policy } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { dropPolicy, policiesListKey } from './list-policies';

/** DELETE /policies/{id}; the policy is then removed locally (spec §4). */
export function useDeletePolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(() => http.delete(`policies/${id}`).json<MessageResponse>()),
    onSuccess: (_answer, id) =>
      client.setQueryData<ListResponse<Policy>>(policiesListKey, (list) => dropPolicy(list, id)),
  });
}
