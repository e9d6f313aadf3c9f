import type { AccessToken } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';

/** POST /login/access-token, form-encoded, without an Authorization header. */
export function requestAccessToken(username: string, password: string): Promise<AccessToken> {
  const body = new URLSearchParams({ username, password });
  return call(() => http.post('login/access-token', { body }).json<AccessToken>());
}
