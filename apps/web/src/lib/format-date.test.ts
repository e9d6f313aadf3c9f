import { describe, expect, it } from 'vitest';
import { formatPreciseDateTime } from './format-date';

describe('formatPreciseDateTime', () => {
  it('shows the six fractional digits of an alert time', () => {
    const text = formatPreciseDateTime('2024-05-01T10:11:12.123456Z', 'en');
    expect(text).toContain('12.123456');
    expect(text).toContain('2024');
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
});
