/**
 * What PostgreSQL cannot hold, written as its JSON escape instead. Sensors copy traffic into
 * their events (Suricata puts NUL bytes of a request into `http.url`), but a `text` value may
 * not contain NUL, `json` (the alert's event) refuses a surrogate escape that is not half of a
 * pair, and `jsonb` refuses that and `\u0000`. Such a character is kept as the six characters of
 * its escape (`\u0000`, `\ud800`), so an analyst still sees where it was; every other character
 * is left alone.
 */

/** A string for a text column: NUL and lone surrogates become their escape text. */
export function storableText(value: string): string {
  if (!SUSPECT.test(value)) return value;
  return value.replace(UNSTORABLE, escapeText);
}

/**
 * JSON text (as `JSON.stringify` writes it) for a json or jsonb column: the `\u0000` escape and
 * the escapes of lone surrogates become escaped backslashes, i.e. the strings hold the escape as
 * text. `JSON.stringify` escapes a surrogate only when it is lone, and every other escape it
 * writes is one jsonb reads, so nothing else changes.
 */
export function storableJson(json: string): string {
  if (!json.includes('\\u')) return json;
  // Pairs of backslashes are matched too, so an escaped backslash before `u0000` (a string
  // that holds the text `\u0000`) is never taken for an escape.
  return json.replace(JSON_UNSTORABLE, (match) => (match === '\\\\' ? match : `\\${match}`));
}

const SUSPECT = /[\0\ud800-\udfff]/;
const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const escapeText = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
const JSON_UNSTORABLE = /\\\\|\\u0000|\\ud[89a-f][0-9a-f]{2}/g;
