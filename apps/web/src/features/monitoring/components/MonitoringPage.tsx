import { useTranslation } from 'react-i18next';
import MonitorHeart from '@mui/icons-material/MonitorHeart';
import { AreaPlaceholder } from '../../../components/page/AreaPlaceholder';

export function MonitoringPage() {
  const { t } = useTranslation();
  return (
    <AreaPlaceholder
      title={t('nav.monitoring')}
      description={t('placeholder.monitoring')}
      icon={<MonitorHeart sx={{ fontSize: 48, color: 'primary.main' }} />}
    />
  );
}
