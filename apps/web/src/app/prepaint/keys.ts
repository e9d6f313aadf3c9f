/**
 * The translations the pre-painted frame shows. Only these, in each language, are built into
 * the entry script (the `virtual:prepaint-texts` module of vite.config.ts), not the locales.
 */
export const PREPAINT_TEXT_KEYS = [
  'app.name',
  'common.loading',
  'nav.devices',
  'table.search',
  'table.searchHelp',
  'devices.searchHelp',
] as const;

export type PrepaintTextKey = (typeof PREPAINT_TEXT_KEYS)[number];

/** The virtual module's name (vite.config.ts builds it from the locale files). */
export const PREPAINT_TEXTS_MODULE = 'virtual:prepaint-texts';
