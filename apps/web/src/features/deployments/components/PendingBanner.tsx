import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { pendingDeploymentsQueryOptions } from '../api/deployments';

/** While the organization stages its changes: "N changes not deployed", leading to /deploy. */
export function PendingBanner() {
  const { t } = useTranslation();
  const pending = useQuery({ ...pendingDeploymentsQueryOptions, refetchInterval: 30_000 });
  const count = pending.data?.data.length ?? 0;
  if (pending.data?.deploy_mode !== 'staged' || count === 0) return null;
  return (
    <Alert severity="info" square data-testid="pending-deploy-banner">
      {t('deploy.banner', { count })}{' '}
      <Link component={RouterLink} to="/deploy">
        {t('deploy.open')}
      </Link>
    </Alert>
  );
}
