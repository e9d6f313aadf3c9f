import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageResponse } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { usersListKey } from './list-users';

/** DELETE /users/{id} (admin); the whole list is reloaded afterwards (spec §4). */
export function useDeleteUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(() => http.delete(`users/${id}`).json<MessageResponse>()),
    onSuccess: () => client.invalidateQueries({ queryKey: usersListKey }),
  });
}
