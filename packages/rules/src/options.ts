// The option list `(keyword[:value]; …)`: one pass that splits options and reads the
// well-known ones. A `;` ends an option unless it is escaped (`\;`) or inside double quotes, so
// `pcre:"/a;b/"` is one option; `\\` is an escaped backslash, so `content:"a\\";` ends there.
// When the quotes of the rest of the rule do not balance, an option ends at its first unescaped
// `;` as in Suricata (whose splitter ignores quotes).

import type { Failure } from './failure.js';
import { fail } from './failure.js';
import { isBlank } from './logical-text.js';
import type { MetadataEntry, RuleOption, RuleReference } from './types.js';

export interface OptionFields {
  options: RuleOption[];
  msg: string | null;
  gid: number;
  sid: number;
  rev: number | null;
  classtype: string | null;
  priority: number | null;
  metadata: MetadataEntry[];
  references: RuleReference[];
  flowbits: string[];
}

function isKeywordChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) || // a-z
    (c >= 65 && c <= 90) || // A-Z
    (c >= 48 && c <= 57) || // 0-9
    c === 95 || // _
    c === 45 || // -
    c === 46 // .
  );
}

/** A non-negative decimal integer, or -1. */
function readUint(value: string): number {
  const n = value.length;
  if (n === 0 || n > 15) return -1;
  let result = 0;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
    result = result * 10 + (c - 48);
  }
  return result;
}

/** Resolves backslash escapes: `\"` → `"`, `\;` → `;`, `\\` → `\`. */
export function unescapeValue(value: string): string {
  if (value.indexOf('\\') < 0) return value;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch === '\\' && i + 1 < value.length) {
      i++;
      out += value[i];
    } else {
      out += ch;
    }
  }
  return out;
}

function readMsg(value: string): string {
  const n = value.length;
  const quoted = n >= 2 && value.charCodeAt(0) === 34 && value.charCodeAt(n - 1) === 34;
  return unescapeValue(quoted ? value.slice(1, n - 1) : value);
}

function addMetadata(target: MetadataEntry[], value: string): void {
  for (const part of value.split(',')) {
    const entry = part.trim();
    if (entry.length === 0) continue;
    let space = 0;
    while (space < entry.length && !isBlank(entry.charCodeAt(space))) space++;
    target.push({ key: entry.slice(0, space), value: entry.slice(space).trim() });
  }
}

function readReference(value: string): RuleReference {
  const comma = value.indexOf(',');
  if (comma < 0) return { system: value, id: '' };
  return { system: value.slice(0, comma).trim(), id: value.slice(comma + 1).trim() };
}

const NUMERIC = new Set(['sid', 'gid', 'rev', 'priority']);

/**
 * Scans the options of `s` from the `(` at `open` to the closing `)`, which must end the text
 * (blanks aside).
 */
export function parseOptions(s: string, open: number): OptionFields | Failure {
  const n = s.length;
  const fields: OptionFields = {
    options: [],
    msg: null,
    gid: 1,
    sid: -1,
    rev: null,
    classtype: null,
    priority: null,
    metadata: [],
    references: [],
    flowbits: [],
  };
  let i = open + 1;
  for (;;) {
    while (i < n && isBlank(s.charCodeAt(i))) i++;
    if (i >= n)
      return fail(open, 'missing-options', "the '(' that opens the options is never closed");
    if (s.charCodeAt(i) === 41 /* ) */) {
      i++;
      while (i < n && isBlank(s.charCodeAt(i))) i++;
      if (i < n) return fail(i, 'trailing-text', "unexpected text after the closing ')'");
      break;
    }
    const kStart = i;
    while (i < n && isKeywordChar(s.charCodeAt(i))) i++;
    const keyword = s.slice(kStart, i);
    if (keyword.length === 0) {
      return fail(i, 'bad-keyword', `expected an option keyword, found '${s[i] ?? ''}'`);
    }
    while (i < n && isBlank(s.charCodeAt(i))) i++;
    const c = s.charCodeAt(i);
    let value: string | null = null;
    if (c === 59 /* ; */) {
      i++;
    } else if (c === 58 /* : */) {
      i++;
      const vStart = i;
      let inQuote = false;
      let quoteAt = -1;
      let quotedSemicolon = -1;
      for (; i < n; i++) {
        const v = s.charCodeAt(i);
        if (v === 92 /* \ */) i++;
        else if (v === 34 /* " */) {
          inQuote = !inQuote;
          quoteAt = i;
        } else if (v === 59 /* ; */) {
          if (!inQuote) break;
          if (quotedSemicolon < 0) quotedSemicolon = i;
        }
      }
      if (i >= n) {
        // The quotes do not balance (`pcre:"/[^"]+/";`): end the option where Suricata would,
        // at its first unescaped ';'.
        if (quotedSemicolon >= 0) i = quotedSemicolon;
        else if (inQuote) {
          return fail(quoteAt, 'unterminated-string', `the quoted text in '${keyword}' never ends`);
        } else {
          return fail(kStart, 'unterminated-option', `option '${keyword}' does not end with ';'`);
        }
      }
      value = s.slice(vStart, i).trim();
      i++;
    } else if (i >= n || c === 41) {
      return fail(kStart, 'unterminated-option', `option '${keyword}' does not end with ';'`);
    } else {
      return fail(i, 'bad-keyword', `unexpected '${s[i] ?? ''}' after option keyword '${keyword}'`);
    }
    fields.options.push({ keyword, value });
    if (value === null) continue;
    if (NUMERIC.has(keyword)) {
      const number = readUint(value);
      if (number < 0) return fail(kStart, 'bad-number', `${keyword} '${value}' is not a number`);
      if (number === 0 && keyword === 'sid')
        return fail(kStart, 'bad-number', 'sid 0 is not allowed');
      if (keyword === 'sid') fields.sid = number;
      else if (keyword === 'gid') fields.gid = number;
      else if (keyword === 'rev') fields.rev = number;
      else fields.priority = number;
      continue;
    }
    switch (keyword) {
      case 'msg':
        fields.msg = readMsg(value);
        break;
      case 'classtype':
        fields.classtype = value;
        break;
      case 'metadata':
        addMetadata(fields.metadata, value);
        break;
      case 'reference':
        fields.references.push(readReference(value));
        break;
      case 'flowbits':
        fields.flowbits.push(value);
        break;
      default:
        break;
    }
  }
  if (fields.sid < 0) return fail(open, 'missing-sid', 'the rule has no sid');
  return fields;
}
