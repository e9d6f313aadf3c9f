import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { CacheProvider, type EmotionCache } from '@emotion/react';
import { QueryClientProvider } from '@tanstack/react-query';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { direction } from '../lib/i18n';
import { queryClient } from '../lib/query-client';
import { buildTheme, DEFAULT_COLOURS, loadThemeColours, type ThemeColours } from '../lib/theme';
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

/** Theme (spec colours, replaced by /assets/theme.json), direction, server-state cache. */
export function Providers({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const dir = direction(i18n.language);
  const [colours, setColours] = useState<ThemeColours>({ ...DEFAULT_COLOURS });
  useEffect(() => {
    void loadThemeColours().then(setColours);
  }, []);
  const theme = useMemo(() => buildTheme(colours, dir), [colours, dir]);
  const cache = useEmotionCache(dir);
  return (
    <CacheProvider value={cache}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </ThemeProvider>
    </CacheProvider>
  );
}
