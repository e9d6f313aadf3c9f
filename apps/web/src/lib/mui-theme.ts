import { createTheme, type Components, type Theme, type ThemeOptions } from '@mui/material/styles';
import { contrastTextOn, hoverFillOf, textShadeOf } from './contrast';
import type { ThemeColours } from './theme';

declare module '@mui/material/styles' {
  interface Palette {
    accent: Palette['primary'];
  }
  interface PaletteOptions {
    accent?: PaletteOptions['primary'];
  }
  interface PaletteColor {
    /** The colour as text on white or light grey: itself, or a darker shade reaching 4.5:1. */
    textOnLight: string;
  }
  interface SimplePaletteColorOptions {
    textOnLight?: string;
  }
}

const KEYS = ['primary', 'secondary', 'accent', 'error', 'info', 'success', 'warning'] as const;
type Key = (typeof KEYS)[number];
/** The colours components take as their `color` prop (accent is the theme's own). */
const COMPONENT_KEYS = ['primary', 'secondary', 'error', 'info', 'success', 'warning'] as const;
type ComponentKey = (typeof COMPONENT_KEYS)[number];

/**
 * A palette colour: the spec colour as the fill, labels on it (also under the pointer) and text
 * of it readable (AA).
 */
const entry = (main: string) => {
  const contrastText = contrastTextOn(main);
  return {
    main,
    contrastText,
    dark: hoverFillOf(main, contrastText),
    textOnLight: textShadeOf(main),
  };
};

/**
 * Where MUI draws text in a palette colour's `main` on a light surface (text and outlined
 * buttons, links and coloured typography, outlined chips, the selected tab, a focused label,
 * a selected toggle), it draws the colour's `textOnLight` instead. Fills keep `main`.
 */
function colouredText(shade: Record<Key, string>): Components<Theme> {
  const each = <T>(style: (key: ComponentKey) => T) => COMPONENT_KEYS.map((key) => style(key));
  return {
    MuiButton: {
      variants: each((color) => ({
        props: { color },
        style: {
          '--variant-textColor': shade[color],
          '--variant-outlinedColor': shade[color],
        },
      })),
    },
    MuiTypography: {
      variants: each((color) => ({ props: { color }, style: { color: shade[color] } })),
    },
    MuiChip: {
      variants: each((color) => ({
        props: { variant: 'outlined', color },
        style: { color: shade[color] },
      })),
    },
    MuiTab: {
      styleOverrides: {
        root: {
          '&.MuiTab-textColorPrimary.Mui-selected': { color: shade.primary },
          '&.MuiTab-textColorSecondary.Mui-selected': { color: shade.secondary },
        },
      },
    },
    MuiFormLabel: {
      variants: each((color) => ({
        props: { color },
        style: { '&.Mui-focused:not(.Mui-error)': { color: shade[color] } },
      })),
    },
    MuiToggleButton: {
      variants: each((color) => ({
        props: { color },
        style: { '&.Mui-selected': { color: shade[color] } },
      })),
    },
  };
}

/** Texts the theme gives components by default, in the console's language. */
export interface ThemeTexts {
  /** The name of a progress bar or spinner that has none of its own. */
  loading: string;
}

/**
 * What the user's system asks of motion (`prefers-reduced-motion: reduce`): no transitions (a
 * dialog, menu or drawer is there at once) and no ripple on a press (WCAG 2.3.3, the ripple is
 * switched off in buildTheme). Progress bars and spinners still move: they are the sign that
 * work goes on.
 */
const STILL_TRANSITIONS: ThemeOptions['transitions'] = {
  create: () => 'none',
  duration: {
    shortest: 0,
    shorter: 0,
    short: 0,
    standard: 0,
    complex: 0,
    enteringScreen: 0,
    leavingScreen: 0,
  },
};

export function buildTheme(
  colours: ThemeColours,
  direction: 'ltr' | 'rtl',
  texts: ThemeTexts = { loading: 'Loading...' },
  motion: 'full' | 'reduced' = 'full',
): Theme {
  const still = motion === 'reduced';
  const palette = Object.fromEntries(KEYS.map((key) => [key, entry(colours[key])])) as Record<
    Key,
    ReturnType<typeof entry>
  >;
  const shade = Object.fromEntries(KEYS.map((key) => [key, palette[key].textOnLight])) as Record<
    Key,
    string
  >;
  return createTheme({
    direction,
    palette: { mode: 'light', ...palette },
    ...(still ? { transitions: STILL_TRANSITIONS } : {}),
    components: {
      ...(still ? { MuiButtonBase: { defaultProps: { disableRipple: true } } } : {}),
      ...colouredText(shade),
      // A progress bar needs an accessible name (WCAG 4.1.2); these name any that has none.
      MuiLinearProgress: { defaultProps: { 'aria-label': texts.loading } },
      MuiCircularProgress: { defaultProps: { 'aria-label': texts.loading } },
      // The alert list's cells (PivotValue, the star, the severity and state marks, the message,
      // the row's checkbox): plain elements styled here once, not MUI components with their own
      // styles each, as a live list draws dozens of rows at every insert.
      MuiCssBaseline: {
        styleOverrides: {
          ...alertCellStyles(palette, shade),
          'button.pivot': {
            all: 'unset',
            // A long value (a device's name) ends in an ellipsis inside its cell.
            display: 'inline-block',
            maxWidth: '100%',
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
            verticalAlign: 'bottom',
            cursor: 'pointer',
            borderRadius: 2,
            // Addresses and ports read left to right in an Arabic page too.
            unicodeBidi: 'isolate',
          },
          'button.pivot:hover, button.pivot:focus-visible': {
            textDecoration: 'underline',
            color: shade.primary,
          },
          'button.pivot:focus-visible': { outline: `2px solid ${palette.primary.main}` },
        },
      },
    },
  });
}

/** The alert list's cell classes (see MuiCssBaseline above). */
function alertCellStyles(
  palette: Record<Key, ReturnType<typeof entry>>,
  shade: Record<Key, string>,
): Record<string, Record<string, string | number>> {
  const focus = { outline: `2px solid ${palette.primary.main}`, outlineOffset: 1 };
  const mark = (fill: string, text: string) => ({ backgroundColor: fill, color: text });
  return {
    // The chip of a severity or a state, as a small MUI Chip looks.
    '.cell-mark': {
      display: 'inline-flex',
      alignItems: 'center',
      height: 22,
      padding: '0 8px',
      borderRadius: 11,
      fontSize: '0.8125rem',
      lineHeight: 1,
      whiteSpace: 'nowrap',
      boxSizing: 'border-box',
      verticalAlign: 'middle',
      ...mark('rgba(0, 0, 0, 0.08)', 'rgba(0, 0, 0, 0.87)'),
    },
    '.cell-mark.error': mark(palette.error.main, palette.error.contrastText),
    '.cell-mark.warning': mark(palette.warning.main, palette.warning.contrastText),
    '.cell-mark.info': mark(palette.info.main, palette.info.contrastText),
    '.cell-mark.outlined': {
      backgroundColor: 'transparent',
      border: '1px solid #bdbdbd',
    },
    'input.row-check': {
      width: 16,
      height: 16,
      margin: 0,
      verticalAlign: 'middle',
      cursor: 'pointer',
      accentColor: palette.primary.main,
    },
    'button.star-toggle': {
      all: 'unset',
      display: 'inline-flex',
      // The star's column is 36 px: the icon's 20 and the cell's padding.
      padding: 0,
      borderRadius: '50%',
      verticalAlign: 'middle',
      cursor: 'pointer',
      color: 'rgba(0, 0, 0, 0.54)',
    },
    'button.star-toggle[aria-pressed="true"]': { color: shade.warning },
    'button.star-toggle:hover': { backgroundColor: 'rgba(0, 0, 0, 0.04)' },
    'button.star-toggle:focus-visible': focus,
    'button.star-toggle:disabled': { cursor: 'default', opacity: 0.5 },
    // The message and its signature id: the message ends in an ellipsis, the id stays whole.
    '.alert-msg': { display: 'flex', alignItems: 'baseline', gap: 8, minWidth: 0 },
    'button.alert-open': {
      all: 'unset',
      flex: '0 1 auto',
      minWidth: 0,
      overflow: 'hidden',
      textOverflow: 'ellipsis',
      whiteSpace: 'nowrap',
      textAlign: 'start',
      cursor: 'pointer',
      color: shade.primary,
    },
    'button.alert-open:hover': { textDecoration: 'underline' },
    'button.alert-open:focus-visible': focus,
    '.alert-sid': { flex: 'none', fontSize: 12, color: 'rgba(0, 0, 0, 0.6)' },
  };
}
