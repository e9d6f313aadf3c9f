import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';

/** GET /users/me: the signed-in user's profile. */
export const meQueryOptions = queryOptions({
  queryKey: ['users', 'me'],
  queryFn: ({ signal }) => call(() => http.get('users/me', { signal }).json<User>()),
  staleTime: Infinity,
});

export function useMe() {
  return useQuery(meQueryOptions);
}
