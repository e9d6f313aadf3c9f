/**
 * One line of COPY … WITH (FORMAT csv) input: null is an empty field (SQL NULL); every string
 * is quoted, so an empty string stays an empty string.
 */
export function csvLine(values: readonly (string | number | null | undefined)[]): string {
  let line = '';
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (i > 0) line += ',';
    if (value === null || value === undefined) continue;
    line += typeof value === 'number' ? String(value) : `"${value.replace(/"/g, '""')}"`;
  }
  return `${line}\n`;
}
