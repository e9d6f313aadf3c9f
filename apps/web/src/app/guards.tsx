import { Suspense, useEffect, useLayoutEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { NotificationsArea } from '../components/notifications/NotificationsArea';
import { FullPageSpinner } from '../components/page/FullPageSpinner';
import { ScreenErrorBoundary } from '../components/page/ScreenErrorBoundary';
import { endPrepaint } from '../lib/prepaint-frame';
import { session, type SessionStatus } from '../lib/session';
import { useStore } from '../lib/store';

/** Logout goes to the login screen unless already there (spec §2). */
function useLogoutRedirect(status: SessionStatus) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const previous = useRef(status);
  useEffect(() => {
    const was = previous.current;
    previous.current = status;
    if (was === 'loggedIn' && status === 'loggedOut' && pathname !== '/login') {
      void navigate('/login', { replace: true });
    }
  }, [status, pathname, navigate]);
}

/** The root: the notifications area always; 'Loading...' while the login state is unknown. */
export function RootShell() {
  const { status } = useStore(session);
  useLogoutRedirect(status);
  // A stored session that is no longer valid: the sign-in page, not the pre-painted frame.
  useLayoutEffect(() => {
    if (status === 'loggedOut') endPrepaint();
  }, [status]);
  return (
    <>
      {status === 'unknown' ? (
        <FullPageSpinner />
      ) : (
        <ScreenErrorBoundary>
          <Suspense fallback={<FullPageSpinner />}>
            <Outlet />
          </Suspense>
        </ScreenErrorBoundary>
      )}
      <NotificationsArea />
    </>
  );
}

/** Login and Register: a logged-in user goes to Devices. */
export function PublicOnly() {
  const { status } = useStore(session);
  return status === 'loggedIn' ? <Navigate to="/devices" replace /> : <Outlet />;
}

/** Guarded screens: logged out → /login. */
export function RequireAuth() {
  const { status } = useStore(session);
  if (status !== 'loggedIn') return <Navigate to="/login" replace />;
  return <Outlet />;
}
