import type { MessageResponse } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';

/** POST /password-recovery/{email}: mails a reset link; no auth. */
export function requestPasswordRecovery(email: string): Promise<MessageResponse> {
  return call(() =>
    http.post(`password-recovery/${encodeURIComponent(email)}`).json<MessageResponse>(),
  );
}
