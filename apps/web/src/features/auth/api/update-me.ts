import { useMutation } from '@tanstack/react-query';
import type { User, UserUpdateMeInput } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { setUser } from '../../../lib/session';

/** PUT /users/me; the answer replaces the session's profile. */
export function updateMe(body: UserUpdateMeInput): Promise<User> {
  return call(() => http.put('users/me', { json: body }).json<User>());
}

export function useUpdateMe() {
  return useMutation({ mutationFn: updateMe, onSuccess: setUser });
}
