import { useTranslation } from 'react-i18next';
import { ExpiringList } from '../../features/expiry/components/ExpiringList';
import { HomePage } from '../../features/home/components/HomePage';
import { homeAreas } from '../nav';

export function Component() {
  const { t } = useTranslation();
  return <HomePage areas={homeAreas(t)} expiring={<ExpiringList />} />;
}
