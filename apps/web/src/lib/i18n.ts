import { useContext } from 'react';
import i18next, { type TFunction } from 'i18next';
import { I18nContext, getI18n, initReactI18next } from 'react-i18next';
import en from '../locales/en.json';
import { mainState } from './main-state';

export const LANGUAGES = ['en', 'ru', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];

export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  ru: 'Русский',
  ar: 'العربية',
};

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

/** en ships with the entry chunk; ru and ar are fetched when chosen. */
const loaders: Record<Exclude<Language, 'en'>, () => Promise<{ default: typeof en }>> = {
  ru: () => import('../locales/ru.json'),
  ar: () => import('../locales/ar.json'),
};

async function ensureLoaded(language: Language): Promise<void> {
  if (language === 'en' || i18next.hasResourceBundle(language, 'translation')) return;
  const bundle = await loaders[language]();
  i18next.addResourceBundle(language, 'translation', bundle.default);
}

function applyDocument(language: string): void {
  document.documentElement.lang = language;
  document.documentElement.dir = direction(language);
}

export async function initI18n(): Promise<void> {
  const language = startLanguage(mainState.get().language, navigator.language);
  i18next.on('languageChanged', applyDocument);
  await i18next.use(initReactI18next).init({
    resources: { en: { translation: en } },
    lng: 'en',
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  try {
    await ensureLoaded(language);
    await i18next.changeLanguage(language);
  } catch (error) {
    console.warn(`language ${language} could not be loaded`, error);
    applyDocument('en');
  }
}

export async function switchLanguage(language: Language): Promise<void> {
  await ensureLoaded(language);
  await i18next.changeLanguage(language);
  mainState.set((s) => ({ ...s, language }));
}

export { i18next };

/**
 * The translation function without useTranslation's subscription to language changes, for
 * components a list draws hundreds of times (its cells): each subscription is made on mount and
 * undone on unmount, and at 200 alerts/s, when every row of the alerts list is new at each
 * insert, they were half its redraw (bench/web.bench.ts). Such a component's list redraws it
 * when the language changes (its columns depend on the language), so its texts follow.
 */
export function useListT(): TFunction {
  const context = useContext(I18nContext);
  return (context?.i18n ?? getI18n()).t;
}
