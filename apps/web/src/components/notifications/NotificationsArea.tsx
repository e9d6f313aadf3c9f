import { lazy, Suspense, useSyncExternalStore } from 'react';
import { notifications } from './queue';

/** The snackbar code loads with the first notice, keeping it off the sign-in page's path. */
const loadNotifier = () => import('./Notifier');
const Notifier = lazy(() => loadNotifier().then((m) => ({ default: m.Notifier })));

/** Screens that already carry the component kit fetch the snackbar ahead of the first notice. */
export const preloadNotifier = () => loadNotifier().catch(() => undefined);

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
