import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User, UserUpdateInput } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { usersListKey } from './list-users';

/** PUT /users/{id} (admin). */
export function useUpdateUser(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UserUpdateInput) =>
      call(() => http.put(`users/${id}`, { json: body }).json<User>()),
    onSuccess: () => client.invalidateQueries({ queryKey: usersListKey }),
  });
}
