import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import BlockIcon from '@mui/icons-material/Block';
import { EmptyState } from '../../components/page/EmptyState';
import { FullPageSpinner } from '../../components/page/FullPageSpinner';
import { PageShell } from '../../components/page/PageShell';
import { useMe } from '../../features/auth/api/me';
import { session } from '../../lib/session';
import { useStore } from '../../lib/store';
import { hasAdminAccess } from '../access';

/** User administration is refused to anyone without administrator access. */
export function Component() {
  const { t } = useTranslation();
  const { authDisabled } = useStore(session);
  const user = useMe();
  if (!authDisabled && user === null) return <FullPageSpinner />;
  if (hasAdminAccess(user, authDisabled)) return <Outlet />;
  return (
    <PageShell title={t('nav.users')}>
      <div data-testid="admin-refused">
        <EmptyState
          icon={<BlockIcon color="error" sx={{ fontSize: 48 }} />}
          title={t('access.denied')}
          body={t('access.adminOnly')}
        />
      </div>
    </PageShell>
  );
}
