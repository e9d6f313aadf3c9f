import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './format-date';
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

describe('short date format (spec §9)', () => {
  const date = new Date(Date.UTC(2025, 2, 7, 12));
  it('is year, month and day', () => {
    expect(formatDate(date, 'en')).toBe('03/07/2025');
    expect(formatDate(date, 'ru')).toBe('07.03.2025');
  });
  it('uses the long month in Arabic', () => {
    const month = new Intl.DateTimeFormat('ar', { month: 'long' }).format(date);
    expect(formatDate(date, 'ar')).toContain(month);
  });
  it('is empty for a bad date', () => {
    expect(formatDate('nope', 'en')).toBe('');
    expect(formatDateTime('nope', 'en')).toBe('');
  });
  it('has a full form with the time to the second, shown on hover', () => {
    const full = formatDateTime(date, 'en');
    const time = new Intl.DateTimeFormat('en', { timeStyle: 'medium' }).format(date);
    expect(full).toContain(time);
    expect(full).toContain('2025');
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
