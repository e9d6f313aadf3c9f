/**
 * The one way the console writes a date or a moment (spec §9): the 'short' date is year (four
 * digits), month and day, with the long month in Arabic; a moment is that date and the time of
 * day to the second. Every screen, table, chart axis and legend goes through these functions.
 */

type Value = string | number | Date | null | undefined;

/** The date `value` stands for, or null when it is not one. */
function toDate(value: Value): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const dateParts = (language: string): Intl.DateTimeFormatOptions =>
  language === 'ar'
    ? { year: 'numeric', month: 'long', day: 'numeric' }
    : { year: 'numeric', month: '2-digit', day: '2-digit' };

const TIME_PARTS: Intl.DateTimeFormatOptions = {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
};
const MINUTE_PARTS: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };

type Kind = 'date' | 'dateTime' | 'time' | 'minute' | 'zoned' | 'precise';

function options(kind: Kind, language: string): Intl.DateTimeFormatOptions {
  switch (kind) {
    case 'date':
      return dateParts(language);
    case 'dateTime':
      return { ...dateParts(language), ...TIME_PARTS };
    case 'time':
      return TIME_PARTS;
    case 'minute':
      return MINUTE_PARTS;
    case 'zoned':
      return { ...dateParts(language), ...TIME_PARTS, timeZoneName: 'short' };
    case 'precise':
      return {
        ...dateParts(language),
        ...TIME_PARTS,
        fractionalSecondDigits: 3,
        timeZoneName: 'short',
      };
  }
}

// Building an Intl.DateTimeFormat costs far more than using one; tables format many rows.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(kind: Kind, language: string): Intl.DateTimeFormat {
  const key = `${kind}|${language}`;
  let found = formatters.get(key);
  if (found === undefined) {
    found = new Intl.DateTimeFormat(language, options(kind, language));
    formatters.set(key, found);
  }
  return found;
}

/** The spec's short date: "03/07/2025", "07.03.2025", "7 مارس 2025"; '' for no date. */
export function formatDate(value: Value, language: string): string {
  const date = toDate(value);
  return date === null ? '' : formatter('date', language).format(date);
}

/** The short date with the time of day to the second; '' for no date. */
export function formatDateTime(value: Value, language: string): string {
  const date = toDate(value);
  return date === null ? '' : formatter('dateTime', language).format(date);
}

/** The time of day to the second, for where the date is shown beside it; '' for no date. */
export function formatTime(value: Value, language: string): string {
  const date = toDate(value);
  return date === null ? '' : formatter('time', language).format(date);
}

/**
 * A chart's time-axis tick (`seconds` since the epoch) for ticks `increment` seconds apart:
 * the short date once ticks are days apart, else the time of day (to the second when needed).
 */
export function formatTimeTick(seconds: number, increment: number, language: string): string {
  const kind: Kind = increment >= 86_400 ? 'date' : increment >= 60 ? 'minute' : 'time';
  return formatter(kind, language).format(new Date(seconds * 1000));
}

/**
 * An alert's moment to the microsecond, as the sensor wrote it: `iso` carries six fractional
 * digits (`2024-05-01T10:11:12.123456Z`), which a Date and Intl cut to milliseconds, so the
 * digits are put back into the formatted seconds. Both forms name the time zone.
 */
export function formatPreciseDateTime(iso: string, language: string): string {
  const date = toDate(iso);
  if (date === null) return '';
  const fraction = /\.(\d{4,9})(?:Z|[+-]\d{2}:?\d{2})$/.exec(iso)?.[1];
  if (fraction === undefined) return formatter('zoned', language).format(date);
  // In the locale's digits, as the rest of the text is (Arabic-Indic in ar).
  const micros = new Intl.NumberFormat(language, {
    minimumIntegerDigits: 6,
    useGrouping: false,
  }).format(Number(fraction.slice(0, 6).padEnd(6, '0')));
  return formatter('precise', language)
    .formatToParts(date)
    .map((part) => (part.type === 'fractionalSecond' ? micros : part.value))
    .join('');
}

/**
 * Moments whose `formatDateTime` text is among the widest in a language (every month, at hours
 * with two-digit and with 12-hour forms), for sizing a column that shows moments in full.
 */
export function dateTimeSamples(language: string): string[] {
  return Array.from({ length: 12 }, (_, month) =>
    [0, 10, 12, 22, 23].map((hour) =>
      formatDateTime(new Date(2026, month, 28, hour, 58, 58), language),
    ),
  ).flat();
}
