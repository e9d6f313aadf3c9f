import { lazy, Suspense, useSyncExternalStore } from 'react';
import { notifications } from './queue';

/** The snackbar code loads with the first notice, keeping it off the sign-in page's path. */
const Notifier = lazy(() => import('./Notifier').then((m) => ({ default: m.Notifier })));

/** Always present (spec §2): an ARIA live region, plus the snackbar once there is a notice. */
export function NotificationsArea() {
  const { current } = useSyncExternalStore(
    notifications.subscribe,
    notifications.getSnapshot,
    notifications.getSnapshot,
  );
  return (
    <div data-testid="notifications-area">
      {current !== null && (
        <Suspense fallback={null}>
          <Notifier />
        </Suspense>
      )}
    </div>
  );
}
