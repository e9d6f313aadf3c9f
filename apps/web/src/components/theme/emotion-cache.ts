import createCache, { type EmotionCache } from '@emotion/cache';

/** MUI styles go first in <head>, so /assets/custom.css (appended later) can override them. */
export const ltrCache = createCache({ key: 'mui', prepend: true });

let rtlCache: EmotionCache | null = null;

export function getRtlCache(): EmotionCache | null {
  return rtlCache;
}

/** The right-to-left cache (flips margins, paddings, positions); loaded only for Arabic. */
export async function loadRtlCache(): Promise<EmotionCache> {
  if (rtlCache !== null) return rtlCache;
  const { default: rtlPlugin } = await import('@mui/stylis-plugin-rtl');
  rtlCache = createCache({ key: 'muirtl', stylisPlugins: [rtlPlugin], prepend: true });
  return rtlCache;
}
