import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageResponse } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { profilesListKey } from './list-profiles';

/** DELETE /deviceconfigurationprofiles/{id}; the whole list is reloaded afterwards (spec §4). */
export function useDeleteProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      call(() => http.delete(`deviceconfigurationprofiles/${id}`).json<MessageResponse>()),
    onSuccess: () => client.invalidateQueries({ queryKey: profilesListKey }),
  });
}
