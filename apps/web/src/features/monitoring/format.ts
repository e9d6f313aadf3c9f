const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

function scaled(bytes: number): { value: number; unit: (typeof UNITS)[number] } {
  let value = Math.max(0, bytes);
  let index = 0;
  while (value >= 1000 && index < UNITS.length - 1) {
    value /= 1000;
    index += 1;
  }
  return { value, unit: UNITS[index] ?? 'byte' };
}

/** 1536000 → "1.5 MB" in the reader's language (decimal units, as disks and links count). */
export function formatBytes(bytes: number, language: string): string {
  const { value, unit } = scaled(bytes);
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit,
    unitDisplay: unit === 'byte' ? 'narrow' : 'short',
    maximumFractionDigits: value < 10 && unit !== 'byte' ? 1 : 0,
  }).format(value);
}

/** Bytes per second → "1.5 MB/s". */
export function formatRate(bytesPerSecond: number, language: string): string {
  const { value, unit } = scaled(bytesPerSecond);
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit: `${unit}-per-second`,
    unitDisplay: 'short',
    maximumFractionDigits: value < 10 && unit !== 'byte' ? 1 : 0,
  }).format(value);
}

/** 0–100 → "42%". */
export function formatPercent(percent: number, language: string): string {
  return new Intl.NumberFormat(language, {
    style: 'percent',
    maximumFractionDigits: percent < 10 ? 1 : 0,
  }).format(percent / 100);
}

/** The chart windows of the Monitoring screen. */
export const WINDOWS = [
  { id: '15m', ms: 15 * 60_000 },
  { id: '1h', ms: 60 * 60_000 },
  { id: '6h', ms: 6 * 60 * 60_000 },
  { id: '24h', ms: 24 * 60 * 60_000 },
  { id: '7d', ms: 7 * 24 * 60 * 60_000 },
] as const;
export type WindowId = (typeof WINDOWS)[number]['id'];
export const DEFAULT_WINDOW: WindowId = '1h';

export const isWindowId = (value: string | null): value is WindowId =>
  WINDOWS.some((w) => w.id === value);
