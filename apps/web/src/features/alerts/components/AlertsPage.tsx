import { useTranslation } from 'react-i18next';
import NotificationsActive from '@mui/icons-material/NotificationsActive';
import { AreaPlaceholder } from '../../../components/page/AreaPlaceholder';

export function AlertsPage() {
  const { t } = useTranslation();
  return (
    <AreaPlaceholder
      title={t('nav.alerts')}
      description={t('placeholder.alerts')}
      icon={<NotificationsActive sx={{ fontSize: 48, color: 'primary.main' }} />}
    />
  );
}
