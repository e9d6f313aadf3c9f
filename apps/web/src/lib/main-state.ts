import { startLanguage, type Language } from './language';
import { storage, StorageKey } from './storage';
import { createStore } from './create-store';

/** The `main` client-state module: the only one saved to local storage and merged on start. */
export interface MainState {
  drawer: 'mini' | 'shown';
  language: string | null;
}

const defaults: MainState = { drawer: 'shown', language: null };

export function mergeMainState(saved: unknown): MainState {
  if (typeof saved !== 'object' || saved === null) return { ...defaults };
  const record = saved as Record<string, unknown>;
  return {
    drawer: record.drawer === 'mini' || record.drawer === 'shown' ? record.drawer : defaults.drawer,
    language: typeof record.language === 'string' ? record.language : defaults.language,
  };
}

function load(): MainState {
  const raw = storage.get(StorageKey.mainState);
  if (raw === null) return { ...defaults };
  try {
    return mergeMainState(JSON.parse(raw));
  } catch (error) {
    console.warn('saved main state is not JSON; using defaults', error);
    return { ...defaults };
  }
}

export const mainState = createStore<MainState>(load(), (value) =>
  storage.set(StorageKey.mainState, JSON.stringify(value)),
);

/** The language this page load starts in: the saved choice, else the browser's (spec §1). */
export function pageStartLanguage(): Language {
  return startLanguage(mainState.get().language, navigator.language);
}
