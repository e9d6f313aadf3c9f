import type { QueryClient } from '@tanstack/react-query';
import type { Router } from './router';
import { revalidateSession } from '../features/auth/session-flow';
import { checkComponentVersions } from '../features/system/version-check';
import { session, type SessionStatus } from '../lib/session';

/** Spec §4/§9: while logged in, a check every hour. */
export const SESSION_CHECK_MS = 3_600_000;

/**
 * Reacts to login-state changes: on login the component versions are checked and the
 * hourly check starts; on logout the cache is dropped and the login screen shown.
 */
export function watchSession(client: QueryClient, router: Router): () => void {
  let previous: SessionStatus = session.get().status;
  let timer: ReturnType<typeof setInterval> | null = null;
  const onChange = () => {
    const { status } = session.get();
    if (status === previous) return;
    const was = previous;
    previous = status;
    if (status === 'loggedIn') {
      void checkComponentVersions(client);
      timer ??= setInterval(() => {
        void revalidateSession(client).then(() => checkComponentVersions(client));
      }, SESSION_CHECK_MS);
      return;
    }
    if (timer !== null) clearInterval(timer);
    timer = null;
    if (status === 'loggedOut' && was === 'loggedIn') {
      client.removeQueries();
      if (router.state.location.pathname !== '/login')
        void router.navigate('/login', { replace: true });
    }
  };
  return session.subscribe(onChange);
}
