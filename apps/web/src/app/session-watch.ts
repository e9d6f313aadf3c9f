import { revalidateSession } from '../features/auth/session-flow';
import { checkComponentVersions } from '../features/system/version-check';
import { session, type SessionStatus } from '../lib/session';

/** Spec §4/§9: while logged in, a check every hour. */
export const SESSION_CHECK_MS = 3_600_000;

/**
 * Reacts to login-state changes: on login the component versions are checked and the
 * hourly check starts; on logout it stops and every cached answer is dropped.
 */
export function watchSession(): () => void {
  let previous: SessionStatus = session.get().status;
  let timer: ReturnType<typeof setInterval> | null = null;
  const onChange = () => {
    const { status } = session.get();
    if (status === previous) return;
    const was = previous;
    previous = status;
    if (status === 'loggedIn') {
      void checkComponentVersions();
      timer ??= setInterval(() => {
        void revalidateSession().then(checkComponentVersions);
      }, SESSION_CHECK_MS);
      return;
    }
    if (timer !== null) clearInterval(timer);
    timer = null;
    if (was === 'loggedIn') {
      void import('../lib/query-client').then(({ queryClient }) => queryClient.removeQueries());
    }
  };
  return session.subscribe(onChange);
}
