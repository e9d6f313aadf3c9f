/** "10.0.0.1:53", "[2001:db8::1]:443", or the address alone without a port. */
export const endpoint = (ip: string | null, port: number | null): string =>
  ip === null ? '–' : port === null ? ip : ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;

/** A moment with its time of day, in the reader's language. */
export function formatDateTime(value: string | null, language: string): string {
  if (value === null) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'medium' }).format(
    date,
  );
}
