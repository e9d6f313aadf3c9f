import { useTranslation } from 'react-i18next';
import Security from '@mui/icons-material/Security';
import { AreaPlaceholder } from '../../../components/page/AreaPlaceholder';

export function FirewallPage() {
  const { t } = useTranslation();
  return (
    <AreaPlaceholder
      title={t('nav.firewall')}
      description={t('placeholder.firewall')}
      icon={<Security sx={{ fontSize: 48, color: 'primary.main' }} />}
    />
  );
}
