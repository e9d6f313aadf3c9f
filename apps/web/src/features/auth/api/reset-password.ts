import type { MessageResponse, ResetPassword } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';

/** POST /reset-password/ {token, new_password}. */
export function resetPassword(body: ResetPassword): Promise<MessageResponse> {
  return call(() => http.post('reset-password/', { json: body }).json<MessageResponse>());
}
