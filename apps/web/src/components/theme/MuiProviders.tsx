import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { CacheProvider, type EmotionCache } from '@emotion/react';
import CssBaseline from '@mui/material/CssBaseline';
import useMediaQuery from '@mui/material/useMediaQuery';
import { ThemeProvider } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { direction } from '../../lib/i18n';
import { buildTheme } from '../../lib/mui-theme';
import {
  DEFAULT_COLOURS,
  loadedThemeColours,
  sameColours,
  themeColours,
  type ThemeColours,
} from '../../lib/theme';
import { getRtlCache, loadRtlCache, ltrCache } from './emotion-cache';

function useEmotionCache(dir: 'ltr' | 'rtl'): EmotionCache {
  const [rtl, setRtl] = useState(getRtlCache);
  useEffect(() => {
    if (dir === 'rtl' && rtl === null) {
      loadRtlCache().then(setRtl, (error: unknown) =>
        console.warn('RTL styles failed to load', error),
      );
    }
  }, [dir, rtl]);
  return dir === 'rtl' && rtl !== null ? rtl : ltrCache;
}

/**
 * Material theme (spec colours, replaced by /assets/theme.json) and writing direction.
 * Only the screens built with the component kit load it; the sign-in page does not.
 */
export function MuiProviders({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const dir = direction(i18n.language);
  const [colours, setColours] = useState<ThemeColours>(
    () => loadedThemeColours() ?? { ...DEFAULT_COLOURS },
  );
  useEffect(() => {
    // A new theme object re-renders and restyles every component: only when colours differ.
    void themeColours().then((fetched) =>
      setColours((shown) => (sameColours(shown, fetched) ? shown : fetched)),
    );
  }, []);
  const loading = t('common.loading');
  const motion = useMediaQuery('(prefers-reduced-motion: reduce)', { noSsr: true })
    ? 'reduced'
    : 'full';
  const theme = useMemo(
    () => buildTheme(colours, dir, { loading }, motion),
    [colours, dir, loading, motion],
  );
  const cache = useEmotionCache(dir);
  return (
    <CacheProvider value={cache}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {children}
      </ThemeProvider>
    </CacheProvider>
  );
}
