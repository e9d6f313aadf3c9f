import { createTheme, type Theme } from '@mui/material/styles';
import type { ThemeColours } from './theme';

declare module '@mui/material/styles' {
  interface Palette {
    accent: Palette['primary'];
  }
  interface PaletteOptions {
    accent?: PaletteOptions['primary'];
  }
}

export function buildTheme(colours: ThemeColours, direction: 'ltr' | 'rtl'): Theme {
  return createTheme({
    direction,
    palette: {
      mode: 'light',
      primary: { main: colours.primary },
      secondary: { main: colours.secondary },
      accent: { main: colours.accent },
      error: { main: colours.error },
      info: { main: colours.info },
      success: { main: colours.success },
      warning: { main: colours.warning },
    },
  });
}
