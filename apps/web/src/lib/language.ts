/**
 * The console's languages and how the one a page starts in is chosen, without i18next: the
 * pre-painted frame (app/prepaint) needs them before the translation library has loaded.
 */
export const LANGUAGES = ['en', 'ru', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Spec §1: the stored preference, else the browser's first two letters, else en. */
export function startLanguage(stored: string | null, browser: string | undefined): Language {
  if (isLanguage(stored)) return stored;
  const prefix = (browser ?? '').slice(0, 2).toLowerCase();
  return isLanguage(prefix) ? prefix : 'en';
}

export function direction(language: string): 'rtl' | 'ltr' {
  return language === 'ar' ? 'rtl' : 'ltr';
}
