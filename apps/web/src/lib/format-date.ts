/** The date `value` stands for, or null when it is not one. */
function toDate(value: string | number | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Spec §9: the 'short' date format is year, month and day; Arabic uses the long month.
 */
export function formatDate(value: string | number | Date, language: string): string {
  const date = toDate(value);
  if (date === null) return '';
  const options: Intl.DateTimeFormatOptions =
    language === 'ar'
      ? { year: 'numeric', month: 'long', day: 'numeric' }
      : { year: 'numeric', month: '2-digit', day: '2-digit' };
  return new Intl.DateTimeFormat(language, options).format(date);
}

/** The full moment (date, time to the second, time zone), for where the short date is too little. */
export function formatDateTime(value: string | number | Date, language: string): string {
  const date = toDate(value);
  if (date === null) return '';
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'long' }).format(date);
}

/**
 * An alert's moment to the microsecond, as the sensor wrote it: `iso` carries six fractional
 * digits (`2024-05-01T10:11:12.123456Z`), which a Date and Intl cut to milliseconds, so the
 * digits are put back into the formatted seconds. Anything else is formatted as formatDateTime.
 */
export function formatPreciseDateTime(iso: string, language: string): string {
  const date = toDate(iso);
  const fraction = /\.(\d{4,9})(?:Z|[+-]\d{2}:?\d{2})$/.exec(iso)?.[1];
  if (date === null || fraction === undefined) return formatDateTime(iso, language);
  const parts = new Intl.DateTimeFormat(language, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    fractionalSecondDigits: 3,
    timeZoneName: 'short',
  }).formatToParts(date);
  // In the locale's digits, as the rest of the text is (Arabic-Indic in ar).
  const micros = new Intl.NumberFormat(language, {
    minimumIntegerDigits: 6,
    useGrouping: false,
  }).format(Number(fraction.slice(0, 6).padEnd(6, '0')));
  return parts.map((part) => (part.type === 'fractionalSecond' ? micros : part.value)).join('');
}
