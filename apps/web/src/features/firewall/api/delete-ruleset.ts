import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageResponse } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { rulesetsListKey } from './list-rulesets';

/** DELETE /fwruleset/{id} (409 while devices use it); the whole list is reloaded (spec §4). */
export function useDeleteRuleset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(() => http.delete(`fwruleset/${id}`).json<MessageResponse>()),
    onSuccess: () => client.invalidateQueries({ queryKey: rulesetsListKey }),
  });
}
