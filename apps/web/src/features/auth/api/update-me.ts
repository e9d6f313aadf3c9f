import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User, UserUpdateMeInput } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { meQueryOptions } from './me';

/** PUT /users/me; the answer replaces the cached profile. */
export function updateMe(body: UserUpdateMeInput): Promise<User> {
  return call(() => http.put('users/me', { json: body }).json<User>());
}

export function useUpdateMe() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateMe,
    onSuccess: (user) => client.setQueryData(meQueryOptions.queryKey, user),
  });
}
