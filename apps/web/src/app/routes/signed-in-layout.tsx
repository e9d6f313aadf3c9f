import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import { preloadNotifier } from '../../components/notifications/NotificationsArea';
import { FullPageSpinner } from '../../components/page/FullPageSpinner';
import { ScreenErrorBoundary } from '../../components/page/ScreenErrorBoundary';
import { MuiProviders } from '../../components/theme/MuiProviders';
import { AppLayout } from '../../components/layout/AppLayout';
import { UnsavedChangesProvider } from '../../components/unsaved/UnsavedChangesProvider';
import { useAskBeforeLeaving } from '../../components/unsaved/useUnsavedChangesGuard';
import { useMe } from '../../features/auth/api/me';
import { PendingBanner } from '../../features/deployments/components/PendingBanner';
import { signOut } from '../../features/auth/session-flow';
import { queryClient } from '../../lib/query-client';
import { session } from '../../lib/session';
import { useStore } from '../../lib/store';
import { hasAdminAccess } from '../access';
import { navItems } from '../nav';

/** Layout of every signed-in screen: drawer, top bar, banner when authentication is off. */
export function Component() {
  return (
    <MuiProviders>
      <QueryClientProvider client={queryClient}>
        <UnsavedChangesProvider>
          <SignedInFrame />
        </UnsavedChangesProvider>
      </QueryClientProvider>
    </MuiProviders>
  );
}

function SignedInFrame() {
  const { t } = useTranslation();
  const askBeforeLeaving = useAskBeforeLeaving();
  const { authDisabled } = useStore(session);
  const user = useMe();
  const { pathname } = useLocation();
  useEffect(() => void preloadNotifier(), []);
  const name = user === null ? '' : `${user.first_name} ${user.last_name}`.trim() || user.email;
  return (
    <AppLayout
      items={navItems(t, hasAdminAccess(user, authDisabled))}
      userName={name}
      onLogout={() => askBeforeLeaving(signOut)}
      banner={
        <>
          {authDisabled && (
            <Alert severity="warning" square data-testid="auth-disabled-banner">
              {t('auth.disabledBanner')}
            </Alert>
          )}
          {user !== null && <PendingBanner />}
        </>
      }
    >
      <ScreenErrorBoundary key={pathname}>
        <Suspense fallback={<FullPageSpinner />}>
          <Outlet />
        </Suspense>
      </ScreenErrorBoundary>
    </AppLayout>
  );
}
