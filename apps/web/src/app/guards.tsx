import { Navigate, Outlet, useLocation } from 'react-router';
import { Notifier } from '../components/notifications/Notifier';
import { FullPageSpinner } from '../components/page/FullPageSpinner';
import { session } from '../lib/session';
import { useStore } from '../lib/store';

/** The root: the notifications area always; 'Loading...' while the login state is unknown. */
export function RootShell() {
  const { status } = useStore(session);
  return (
    <>
      {status === 'unknown' ? <FullPageSpinner /> : <Outlet />}
      <Notifier />
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
  const location = useLocation();
  if (status !== 'loggedIn')
    return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}
