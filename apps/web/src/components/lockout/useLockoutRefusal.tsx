import { useState, type ReactNode } from 'react';
import { LockoutDialog, lockoutMessage } from './LockoutDialog';

/**
 * A save the lock-out check refused (422 `lockout`): `refusedBy(failure, what)` keeps the
 * refusal and what was being saved, and answers whether the failure was one; `dialog(sendAnyway)`
 * shows the server's reason, and for an Administrator "Apply anyway", which calls `sendAnyway`
 * with what was being saved (to send it again with `override_lockout: true`).
 */
export function useLockoutRefusal<T>(canOverride: boolean): {
  refusedBy: (failure: unknown, what: T) => boolean;
  dialog: (sendAnyway: (refused: T) => void) => ReactNode;
} {
  const [refused, setRefused] = useState<{ what: T; message: string } | null>(null);
  const refusedBy = (failure: unknown, what: T) => {
    const message = lockoutMessage(failure);
    if (message === null) return false;
    setRefused({ what, message });
    return true;
  };
  const dialog = (sendAnyway: (refused: T) => void) =>
    refused === null ? null : (
      <LockoutDialog
        message={refused.message}
        canOverride={canOverride}
        onClose={() => setRefused(null)}
        onOverride={() => {
          setRefused(null);
          sendAnyway(refused.what);
        }}
      />
    );
  return { refusedBy, dialog };
}
