import type { TFunction } from 'i18next';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import HistoryIcon from '@mui/icons-material/History';
import HomeIcon from '@mui/icons-material/Home';
import MonitorHeartIcon from '@mui/icons-material/MonitorHeart';
import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import PublishIcon from '@mui/icons-material/Publish';
import PersonIcon from '@mui/icons-material/Person';
import PolicyIcon from '@mui/icons-material/Policy';
import RouterIcon from '@mui/icons-material/Router';
import SecurityIcon from '@mui/icons-material/Security';
import type { NavItem } from '../components/layout/types';

/** Drawer entries for every area; user administration only for administrators. */
export function navItems(t: TFunction, admin: boolean): NavItem[] {
  const items: NavItem[] = [
    { to: '/home', label: t('nav.home'), icon: <HomeIcon /> },
    { to: '/devices', label: t('nav.devices'), icon: <RouterIcon /> },
    { to: '/monitoring', label: t('nav.monitoring'), icon: <MonitorHeartIcon /> },
    { to: '/alerts', label: t('nav.alerts'), icon: <NotificationsActiveIcon /> },
    { to: '/policies', label: t('nav.policies'), icon: <PolicyIcon /> },
    { to: '/firewall', label: t('nav.firewall'), icon: <SecurityIcon /> },
    { to: '/deploy', label: t('nav.deploy'), icon: <PublishIcon /> },
    { to: '/account', label: t('nav.account'), icon: <PersonIcon /> },
  ];
  if (admin)
    items.push(
      { to: '/admin/users/all', label: t('nav.users'), icon: <AdminPanelSettingsIcon /> },
      { to: '/audit', label: t('nav.audit'), icon: <HistoryIcon /> },
    );
  return items;
}

/** Areas the Home screen leads to, with a line on each. */
export function homeAreas(t: TFunction) {
  return navItems(t, false)
    .filter((item) => item.to !== '/home')
    .map((item) => ({
      ...item,
      title: item.label,
      description: t(AREA_TEXT[item.to] ?? 'home.intro'),
    }));
}

const AREA_TEXT: Record<
  string,
  | 'placeholder.devices'
  | 'placeholder.monitoring'
  | 'placeholder.alerts'
  | 'placeholder.policies'
  | 'placeholder.firewall'
  | 'placeholder.deploy'
  | 'home.account'
> = {
  '/devices': 'placeholder.devices',
  '/monitoring': 'placeholder.monitoring',
  '/alerts': 'placeholder.alerts',
  '/policies': 'placeholder.policies',
  '/firewall': 'placeholder.firewall',
  '/deploy': 'placeholder.deploy',
  '/account': 'home.account',
};
