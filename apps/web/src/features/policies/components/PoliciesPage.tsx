import { useTranslation } from 'react-i18next';
import Policy from '@mui/icons-material/Policy';
import { AreaPlaceholder } from '../../../components/page/AreaPlaceholder';

export function PoliciesPage() {
  const { t } = useTranslation();
  return (
    <AreaPlaceholder
      title={t('nav.policies')}
      description={t('placeholder.policies')}
      icon={<Policy sx={{ fontSize: 48, color: 'primary.main' }} />}
    />
  );
}
