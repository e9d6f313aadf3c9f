import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import MenuIcon from '@mui/icons-material/Menu';
import MenuOpenIcon from '@mui/icons-material/MenuOpen';
import { mainState } from '../../lib/main-state';
import { useStore } from '../../lib/store';
import { LanguageMenu } from './LanguageMenu';
import { NavDrawer } from './NavDrawer';
import { UserMenu } from './UserMenu';
import type { NavItem } from './types';

interface AppLayoutProps {
  items: NavItem[];
  userName: string;
  onLogout: () => void;
  banner?: ReactNode;
  children: ReactNode;
}

/** Top bar, navigation drawer and content area of every signed-in screen. */
export function AppLayout({ items, userName, onLogout, banner, children }: AppLayoutProps) {
  const { t } = useTranslation();
  const { drawer } = useStore(mainState);
  const mini = drawer === 'mini';
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <AppBar position="fixed" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
        <Toolbar>
          <IconButton
            color="inherit"
            edge="start"
            aria-label={mini ? t('layout.showDrawer') : t('layout.miniDrawer')}
            aria-pressed={!mini}
            onClick={() => mainState.set((s) => ({ ...s, drawer: mini ? 'shown' : 'mini' }))}
            sx={{ marginInlineEnd: 2 }}
          >
            {mini ? <MenuIcon /> : <MenuOpenIcon />}
          </IconButton>
          <Typography variant="h6" component="div" sx={{ flexGrow: 1 }}>
            {t('app.name')}
          </Typography>
          <LanguageMenu />
          <UserMenu userName={userName} onLogout={onLogout} />
        </Toolbar>
      </AppBar>
      <NavDrawer items={items} mini={mini} label={t('layout.navigation')} />
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0 }}>
        <Toolbar />
        {banner}
        {children}
      </Box>
    </Box>
  );
}
