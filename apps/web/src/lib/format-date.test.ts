import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatPreciseDateTime,
  formatTime,
  formatTimeTick,
} from './format-date';

// Local time is what the console shows; pin it so the expectations hold on any machine.
const zone = process.env.TZ;
beforeEach(() => {
  process.env.TZ = 'UTC';
});
afterEach(() => {
  process.env.TZ = zone;
});

const moment = '2025-03-07T09:05:07Z';
const arMonth = (date: Date) => new Intl.DateTimeFormat('ar', { month: 'long' }).format(date);
const arDigits = (n: number, width: number) =>
  new Intl.NumberFormat('ar', { minimumIntegerDigits: width, useGrouping: false }).format(n);

describe('formatDate: the spec short date (§9)', () => {
  it('is year, month and day with a four-digit year in en and ru', () => {
    expect(formatDate(moment, 'en')).toBe('03/07/2025');
    expect(formatDate(moment, 'ru')).toBe('07.03.2025');
  });

  it('uses the long month in Arabic', () => {
    const text = formatDate(moment, 'ar');
    expect(text).toContain(arMonth(new Date(moment)));
    expect(text).toContain(arDigits(2025, 4));
    expect(text).not.toMatch(/[/.]/);
  });

  it('is empty for no date or a bad one', () => {
    for (const value of [null, undefined, '', 'nope']) {
      expect(formatDate(value, 'en')).toBe('');
      expect(formatDateTime(value, 'en')).toBe('');
      expect(formatTime(value, 'en')).toBe('');
    }
    expect(formatPreciseDateTime('nope', 'en')).toBe('');
  });
});

describe('formatDateTime: the short date and the time to the second', () => {
  it('reads the same way in every language', () => {
    expect(formatDateTime(moment, 'en')).toBe('03/07/2025, 09:05:07 AM');
    expect(formatDateTime(moment, 'ru')).toBe('07.03.2025, 09:05:07');
    const ar = formatDateTime(moment, 'ar');
    expect(ar).toContain(formatDate(moment, 'ar'));
    expect(ar).toContain(arMonth(new Date(moment)));
    expect(ar).toContain(`${arDigits(9, 2)}:${arDigits(5, 2)}:${arDigits(7, 2)}`);
  });

  it('takes a Date and epoch milliseconds alike', () => {
    const date = new Date(moment);
    expect(formatDateTime(date, 'ru')).toBe(formatDateTime(date.getTime(), 'ru'));
  });

  it('puts the time of day alone in the same shape', () => {
    expect(formatTime(moment, 'en')).toBe('09:05:07 AM');
    expect(formatTime(moment, 'ru')).toBe('09:05:07');
    expect(formatDateTime(moment, 'ru')).toContain(formatTime(moment, 'ru'));
  });
});

describe('formatTimeTick: chart axis labels', () => {
  const seconds = Date.parse(moment) / 1000;
  it('shows short dates once ticks are days apart', () => {
    for (const language of ['en', 'ru', 'ar']) {
      expect(formatTimeTick(seconds, 86_400, language)).toBe(formatDate(moment, language));
    }
  });
  it('shows times of day for closer ticks', () => {
    expect(formatTimeTick(seconds, 3_600, 'ru')).toBe('09:05');
    expect(formatTimeTick(seconds, 10, 'ru')).toBe('09:05:07');
  });
});

describe('formatPreciseDateTime', () => {
  it('shows the six fractional digits of an alert time', () => {
    const text = formatPreciseDateTime('2024-05-01T10:11:12.123456Z', 'en');
    expect(text).toContain('12.123456');
    expect(text).toContain('05/01/2024');
  });

  it("keeps them in every locale, in the locale's digits", () => {
    for (const language of ['ru', 'ar']) {
      const digits = new Intl.NumberFormat(language, {
        minimumIntegerDigits: 6,
        useGrouping: false,
      }).format(1);
      expect(formatPreciseDateTime('2024-05-01T10:11:12.000001Z', language)).toContain(digits);
    }
  });

  it('has the short date of the rest of the console', () => {
    const iso = '2024-05-01T10:11:12.123456Z';
    for (const language of ['en', 'ru', 'ar']) {
      expect(formatPreciseDateTime(iso, language)).toContain(formatDate(iso, language));
    }
    expect(formatPreciseDateTime('2024-05-01T10:11:12Z', 'ru')).toContain('01.05.2024, 10:11:12');
  });
});
