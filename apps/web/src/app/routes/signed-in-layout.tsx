import { Outlet } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import { AppLayout } from '../../components/layout/AppLayout';
import { useMe } from '../../features/auth/api/me';
import { signOut } from '../../features/auth/session-flow';
import { session } from '../../lib/session';
import { useStore } from '../../lib/store';
import { hasAdminAccess } from '../access';
import { navItems } from '../nav';

/** Layout of every signed-in screen: drawer, top bar, banner when authentication is off. */
export function Component() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { authDisabled } = useStore(session);
  const me = useMe();
  const user = me.data;
  const name =
    user === undefined ? '' : `${user.first_name} ${user.last_name}`.trim() || user.email;
  return (
    <AppLayout
      items={navItems(t, hasAdminAccess(user, authDisabled))}
      userName={name}
      onLogout={() => signOut(client)}
      banner={
        authDisabled ? (
          <Alert severity="warning" square data-testid="auth-disabled-banner">
            {t('auth.disabledBanner')}
          </Alert>
        ) : undefined
      }
    >
      <Outlet />
    </AppLayout>
  );
}
