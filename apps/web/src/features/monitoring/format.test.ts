import { describe, expect, it } from 'vitest';
import { formatBytes, formatPercent, formatRate, isWindowId } from './format';

describe('monitoring formats', () => {
  it('scales bytes to decimal units', () => {
    expect(formatBytes(0, 'en')).toBe('0B');
    expect(formatBytes(1_500_000, 'en')).toBe('1.5 MB');
    expect(formatBytes(8_000_000_000, 'en')).toBe('8 GB');
    expect(formatBytes(250_000_000_000, 'en')).toBe('250 GB');
  });

  it('reads rates per second and percentages', () => {
    expect(formatRate(12_500, 'en')).toBe('13 kB/s');
    expect(formatPercent(42.4, 'en')).toBe('42%');
    expect(formatPercent(3.25, 'en')).toBe('3.3%');
  });

  it('knows its windows', () => {
    expect(isWindowId('6h')).toBe(true);
    expect(isWindowId('2h')).toBe(false);
  });
});
