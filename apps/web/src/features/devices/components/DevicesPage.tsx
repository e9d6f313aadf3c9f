import { useTranslation } from 'react-i18next';
import RouterIcon from '@mui/icons-material/Router';
import { AreaPlaceholder } from '../../../components/page/AreaPlaceholder';

export function DevicesPage() {
  const { t } = useTranslation();
  return (
    <AreaPlaceholder
      title={t('nav.devices')}
      description={t('placeholder.devices')}
      icon={<RouterIcon sx={{ fontSize: 48, color: 'primary.main' }} />}
    />
  );
}
