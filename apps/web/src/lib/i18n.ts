import { useContext } from 'react';
import i18next, { type TFunction } from 'i18next';
import { I18nContext, getI18n, initReactI18next } from 'react-i18next';
import en from '../locales/en.json';
import { LANGUAGES, direction, type Language } from './language';
import { mainState, pageStartLanguage } from './main-state';

export { LANGUAGES, direction, isLanguage, startLanguage, type Language } from './language';

export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  ru: 'Русский',
  ar: 'العربية',
};

/** en ships with the console's first scripts (app/start); ru and ar are fetched when chosen. */
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
  const language = pageStartLanguage();
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
  }
  // The document follows the language from here on, not while the start language loads: the
  // frame painted before (app/prepaint) is already in it, and would flip to en and back.
  applyDocument(i18next.language);
  i18next.on('languageChanged', applyDocument);
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
