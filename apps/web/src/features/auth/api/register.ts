import type { User, UserRegisterInput } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';

/** POST /users/open: self-registration, no auth. */
export function registerUser(body: UserRegisterInput): Promise<User> {
  return call(() => http.post('users/open', { json: body }).json<User>());
}
