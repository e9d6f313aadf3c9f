import { describe, expect, it } from 'vitest';
import { direction, startLanguage } from './i18n';
import { mergeMainState } from './main-state';

describe('start language (spec §1)', () => {
  it('stored preference, else the browser’s first two letters, else en', () => {
    expect(startLanguage('ar', 'ru-RU')).toBe('ar');
    expect(startLanguage(null, 'ru-RU')).toBe('ru');
    expect(startLanguage('xx', 'ar-EG')).toBe('ar');
    expect(startLanguage(null, 'de-DE')).toBe('en');
    expect(startLanguage(null, undefined)).toBe('en');
  });

  it('Arabic is right to left', () => {
    expect(direction('ar')).toBe('rtl');
    expect(direction('en')).toBe('ltr');
    expect(direction('ru')).toBe('ltr');
  });
});

describe('persisted main state', () => {
  it('merges what was saved over the defaults and ignores junk', () => {
    expect(mergeMainState({ drawer: 'mini', language: 'ru', other: 1 })).toEqual({
      drawer: 'mini',
      language: 'ru',
    });
    expect(mergeMainState({ drawer: 'huge' })).toEqual({ drawer: 'shown', language: null });
    expect(mergeMainState(null)).toEqual({ drawer: 'shown', language: null });
  });
});
