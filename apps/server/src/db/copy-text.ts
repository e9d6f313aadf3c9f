/**
 * One line of COPY … FROM STDIN input in PostgreSQL's text format: columns split by tabs,
 * null as `\N`, and backslash, tab, newline and carriage return escaped. Chosen over CSV for
 * the ingest hot path: eve.json text is full of quotes (which CSV must double) but almost never
 * holds a backslash or a control character, so most values are appended as they are.
 */
export function copyTextLine(values: readonly (string | number | null | undefined)[]): string {
  let line = '';
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (i > 0) line += '\t';
    if (value === null || value === undefined) line += '\\N';
    else if (typeof value === 'number') line += String(value);
    else line += NEEDS_ESCAPE.test(value) ? value.replace(ESCAPED, escapeChar) : value;
  }
  return `${line}\n`;
}

/**
 * COPY text lines as one UTF-8 buffer, each line written straight into it: what the database
 * reads. Measured on the lines of 1,000 eve.json alerts (970 KB): 1.7 ms, against 8–9 ms to
 * join them into one string and encode that (or to append them and encode the rope).
 */
export function copyTextBytes(lines: readonly string[]): Buffer {
  let size = 0;
  for (const line of lines) size += Buffer.byteLength(line);
  const bytes = Buffer.allocUnsafe(size);
  let offset = 0;
  for (const line of lines) offset += bytes.write(line, offset);
  return bytes;
}

const NEEDS_ESCAPE = /[\\\t\n\r]/;
const ESCAPED = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const escapeChar = (char: string) => ESCAPES[char] ?? char;
