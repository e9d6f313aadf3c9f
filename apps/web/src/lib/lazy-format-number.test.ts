import { describe, expect, it } from 'vitest';
import { countIntlMade } from '../testing/intl-count';
import buildFormatNumber from './lazy-format-number';

describe("MUI's number formatter, made lazy", () => {
  it('makes no Intl object until it formats, then one', () => {
    const made = countIntlMade('NumberFormat');
    const format = buildFormatNumber('en-US');
    expect(made()).toBe(0);
    expect(format(1234567)).toBe('1,234,567');
    expect(format(42)).toBe('42');
    expect(made()).toBe(1);
  });

  it('formats as MUI does: other locales, and non-finite numbers as text', () => {
    expect(buildFormatNumber('de-DE')(1234.5)).toBe('1.234,5');
    expect(buildFormatNumber('en-US')(Number.NaN)).toBe('NaN');
    expect(buildFormatNumber('en-US')(Number.POSITIVE_INFINITY)).toBe('Infinity');
  });

  it('falls back to plain text for a locale Intl refuses', () => {
    expect(buildFormatNumber('not a locale!')(1234)).toBe('1234');
  });
});
