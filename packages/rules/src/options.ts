// The option list `(keyword[:value]; …)`: one pass that splits options and reads the
// well-known ones. A `;` ends an option unless it is escaped (`\;`) or inside double quotes, so
// `pcre:"/a;b/"` is one option; `\\` is an escaped backslash, so `content:"a\\";` ends there.
// A quote closes only before `;`, `,`, `)` or the end. When the quotes of the rest of the rule
// do not balance, an option ends at its first unescaped `;` as in Suricata (whose splitter
// ignores quotes).

import type { Failure } from './failure.js';
import { fail } from './failure.js';
import { isBlank } from './logical-text.js';
import { internSlice } from './intern.js';
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

/** sid, gid, rev and priority are 32-bit unsigned in Suricata and Snort. */
const MAX_U32 = 4294967295;

/** The non-negative decimal integer in s[start, end) (capped near 1e16), or -1. */
function readUint(s: string, start: number, end: number): number {
  if (end <= start) return -1;
  let result = 0;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
    if (result < 1e15) result = result * 10 + (c - 48);
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

function readMsg(s: string, start: number, end: number): string {
  const quoted = end - start >= 2 && s.charCodeAt(start) === 34 && s.charCodeAt(end - 1) === 34;
  return unescapeValue(quoted ? s.slice(start + 1, end - 1) : s.slice(start, end));
}

/** Appends the entries of the metadata value s[start, end): `k v, k v`. */
function addMetadata(target: MetadataEntry[], s: string, start: number, end: number): void {
  let i = start;
  while (i < end) {
    let stop = s.indexOf(',', i);
    if (stop < 0 || stop > end) stop = end;
    let a = i;
    let b = stop;
    while (a < b && isBlank(s.charCodeAt(a))) a++;
    while (b > a && isBlank(s.charCodeAt(b - 1))) b--;
    if (a < b) {
      let k = a;
      while (k < b && !isBlank(s.charCodeAt(k))) k++;
      let v = k;
      while (v < b && isBlank(s.charCodeAt(v))) v++;
      target.push({ key: s.slice(a, k), value: v < b ? s.slice(v, b) : '' });
    }
    i = stop + 1;
  }
}

function readReference(value: string): RuleReference {
  const comma = value.indexOf(',');
  if (comma < 0) return { system: value, id: '' };
  return { system: value.slice(0, comma).trim(), id: value.slice(comma + 1).trim() };
}

/** The keywords read here; each needs a value (Suricata and Snort refuse them bare). */
const NEEDS_VALUE: ReadonlySet<string> = new Set([
  'msg',
  'sid',
  'gid',
  'rev',
  'priority',
  'classtype',
  'metadata',
  'reference',
  'flowbits',
]);

/**
 * A `"` inside a quoted value closes it only when what follows (blanks aside) ends the value or
 * a part of it: `;`, `,` (Snort 3 `content:"x",nocase`), `)` or the end. Otherwise it is a
 * quote inside the value (`pcre:"/[^"]+/"`).
 */
function closesQuote(s: string, from: number): boolean {
  let j = from;
  while (j < s.length && isBlank(s.charCodeAt(j))) j++;
  if (j >= s.length) return true;
  const c = s.charCodeAt(j);
  return c === 59 || c === 44 || c === 41;
}

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
  // Cleared once the quotes are found not to balance: from then on options end at the first
  // unescaped ';' (Suricata's reading), which also keeps the scan linear.
  let quoteAware = true;
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
    let hash = 0;
    for (; i < n; i++) {
      const k = s.charCodeAt(i);
      if (!isKeywordChar(k)) break;
      hash = (Math.imul(hash, 31) + k) | 0;
    }
    const keyword = internSlice(s, kStart, i, hash);
    if (keyword.length === 0) {
      return fail(i, 'bad-keyword', `expected an option keyword, found '${s[i] ?? ''}'`);
    }
    while (i < n && isBlank(s.charCodeAt(i))) i++;
    const c = s.charCodeAt(i);
    let value: string | null = null;
    let vStart = i;
    let vEnd = i;
    if (c === 59 /* ; */) {
      i++;
    } else if (c === 58 /* : */) {
      i++;
      vStart = i;
      let inQuote = false;
      let quoteAt = -1;
      let quotedSemicolon = -1;
      for (; i < n; i++) {
        const v = s.charCodeAt(i);
        if (v === 92 /* \ */) i++;
        else if (v === 34 /* " */) {
          if (!inQuote) {
            inQuote = true;
            quoteAt = i;
          } else if (closesQuote(s, i + 1)) inQuote = false;
        } else if (v === 59 /* ; */) {
          if (!inQuote || !quoteAware) break;
          if (quotedSemicolon < 0) quotedSemicolon = i;
        }
      }
      if (i >= n) {
        // The quotes do not balance (`pcre:"/[^"]+/";`): end the option where Suricata would,
        // at its first unescaped ';'.
        if (quotedSemicolon >= 0) {
          i = quotedSemicolon;
          quoteAware = false;
        } else if (inQuote) {
          return fail(quoteAt, 'unterminated-string', `the quoted text in '${keyword}' never ends`);
        } else {
          return fail(kStart, 'unterminated-option', `option '${keyword}' does not end with ';'`);
        }
      }
      vEnd = i;
      while (vStart < vEnd && isBlank(s.charCodeAt(vStart))) vStart++;
      while (vEnd > vStart && isBlank(s.charCodeAt(vEnd - 1))) vEnd--;
      value = s.slice(vStart, vEnd);
      i++;
    } else if (i >= n || c === 41) {
      return fail(kStart, 'unterminated-option', `option '${keyword}' does not end with ';'`);
    } else {
      return fail(i, 'bad-keyword', `unexpected '${s[i] ?? ''}' after option keyword '${keyword}'`);
    }
    fields.options.push({ keyword, value });
    if (value === null) {
      if (NEEDS_VALUE.has(keyword)) {
        return fail(kStart, 'missing-value', `option '${keyword}' needs a value`);
      }
      continue;
    }
    switch (keyword) {
      case 'sid':
      case 'gid':
      case 'rev':
      case 'priority': {
        const number = readUint(s, vStart, vEnd);
        if (number < 0) return fail(kStart, 'bad-number', `${keyword} '${value}' is not a number`);
        if (number > MAX_U32) {
          return fail(kStart, 'bad-number', `${keyword} ${value} is above ${MAX_U32}`);
        }
        if (keyword === 'sid') {
          if (number === 0) return fail(kStart, 'bad-number', 'sid 0 is not allowed');
          fields.sid = number;
        } else if (keyword === 'gid') fields.gid = number;
        else if (keyword === 'rev') fields.rev = number;
        else fields.priority = number;
        break;
      }
      case 'msg':
        fields.msg = readMsg(s, vStart, vEnd);
        break;
      case 'classtype':
        fields.classtype = value;
        break;
      case 'metadata':
        addMetadata(fields.metadata, s, vStart, vEnd);
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
