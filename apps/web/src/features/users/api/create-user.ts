import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User, UserCreateInput } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { usersListKey } from './list-users';

/** POST /users/ (admin). */
export function useCreateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UserCreateInput) =>
      call(() => http.post('users/', { json: body }).json<User>()),
    onSuccess: () => client.invalidateQueries({ queryKey: usersListKey }),
  });
}
