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
