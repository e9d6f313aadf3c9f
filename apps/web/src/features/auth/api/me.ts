import type { User } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { session } from '../../../lib/session';
import { useStore } from '../../../lib/store';

/**
 * GET /users/me. The profile is session state (spec §4: loaded on login and at start), so
 * it lives in the session store rather than the query cache, which the sign-in page does
 * not load.
 */
export function fetchMe(signal?: AbortSignal): Promise<User> {
  return call(() => http.get('users/me', { signal }).json<User>());
}

export function useMe(): User | null {
  return useStore(session).user;
}
