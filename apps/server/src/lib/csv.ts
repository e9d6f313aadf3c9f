/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break, its quotes
 * doubled. A cell a spreadsheet would run as a formula (=, +, -, @, tab, carriage return first)
 * is prefixed with ' so that a name or message from a sensor cannot run anything when opened.
 * Every CSV download (audit log, alerts) writes its cells through this one function.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line of `record`'s `columns`, CRLF-terminated. */
export const csvRow = <T>(record: T, columns: readonly (keyof T)[]) =>
  `${columns.map((column) => csvCell(record[column])).join(',')}\r\n`;
