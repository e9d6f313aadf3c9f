import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageResponse } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { ruleSourcesKeys } from './keys';

/** DELETE /rulesources/{id}: its history goes, its groups stay as ordinary file groups. */
export function useDeleteSource() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      call(() => http.delete(`rulesources/${id}`).json<MessageResponse>()),
    onSuccess: async (_answer, id) => {
      client.removeQueries({ queryKey: ruleSourcesKeys.source(id) });
      await client.invalidateQueries({ queryKey: ruleSourcesKeys.lists });
    },
  });
}
