import { NavLink } from 'react-router';
import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Box from '@mui/material/Box';
import { Copyright } from '../page/Copyright';
import type { NavItem } from './types';

export const DRAWER_WIDTH = 240;
export const MINI_WIDTH = 64;

interface NavDrawerProps {
  items: NavItem[];
  mini: boolean;
  label: string;
}

/** The left navigation drawer, mini (icons only) or shown (icons and labels). */
export function NavDrawer({ items, mini, label }: NavDrawerProps) {
  const width = mini ? MINI_WIDTH : DRAWER_WIDTH;
  return (
    <Drawer
      variant="permanent"
      data-testid="nav-drawer"
      data-mini={mini}
      sx={{
        width,
        flexShrink: 0,
        '& .MuiDrawer-paper': {
          width,
          boxSizing: 'border-box',
          overflowX: 'hidden',
          transition: (theme) => theme.transitions.create('width'),
        },
      }}
    >
      <Toolbar />
      <Box component="nav" aria-label={label} sx={{ flexGrow: 1 }}>
        <List>
          {items.map((item) => (
            // Each link in its own list item: a list holds only <li> children.
            <ListItem key={item.to} disablePadding>
              <Tooltip title={mini ? item.label : ''} placement="right">
                <ListItemButton
                  component={NavLink}
                  to={item.to}
                  sx={{
                    minHeight: 48,
                    '&.active': { bgcolor: 'action.selected', color: 'primary.textOnLight' },
                  }}
                >
                  <ListItemIcon sx={{ minWidth: 40, color: 'inherit' }}>{item.icon}</ListItemIcon>
                  <ListItemText
                    primary={item.label}
                    sx={{ opacity: mini ? 0 : 1, whiteSpace: 'nowrap' }}
                  />
                </ListItemButton>
              </Tooltip>
            </ListItem>
          ))}
        </List>
      </Box>
      {!mini && (
        <Box sx={{ p: 2 }}>
          <Copyright />
        </Box>
      )}
    </Drawer>
  );
}
