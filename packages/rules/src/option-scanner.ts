// Splits the option list `(keyword[:value]; …)` one option at a time, without building strings
// for values: a value is a range of the rule text, sliced only by whoever needs it.
//
// A `;` ends an option unless it is escaped (`\;`) or inside double quotes, so `pcre:"/a;b/"`
// is one option; `\\` is an escaped backslash, so `content:"a\\";` ends there. Only a quote
// that starts a value (after blanks and a `!`) opens a string, and it closes only before `;`,
// `,`, `)` or the end. When the quotes of the rest of the rule do not balance, an option ends at
// its first unescaped `;`, as in Suricata (whose splitter ignores quotes).

import type { Failure } from './failure.js';
import { fail } from './failure.js';
import { internSlice } from './intern.js';
import { isBlank } from './logical-text.js';

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

export class OptionScanner {
  /** The current option, after `next` returned true. */
  keyword = '';
  keywordStart = 0;
  /** Whether the option has a `:value`; the trimmed value is s[valueStart, valueEnd). */
  hasValue = false;
  valueStart = 0;
  valueEnd = 0;
  private pos: number;
  /** Cleared once the quotes are found not to balance (see the file comment). */
  private quoteAware = true;

  constructor(
    private readonly s: string,
    private readonly open: number,
  ) {
    this.pos = open + 1;
  }

  /** The value as written (quotes and escapes kept), or null for a bare keyword. */
  value(): string | null {
    return this.hasValue ? this.s.slice(this.valueStart, this.valueEnd) : null;
  }

  /** Reads the next option: true, false after the closing `)`, or the failure. */
  next(): boolean | Failure {
    const { s } = this;
    const n = s.length;
    let i = this.pos;
    while (i < n && isBlank(s.charCodeAt(i))) i++;
    if (i >= n) {
      return fail(this.open, 'missing-options', "the '(' that opens the options is never closed");
    }
    if (s.charCodeAt(i) === 41 /* ) */) {
      i++;
      while (i < n && isBlank(s.charCodeAt(i))) i++;
      if (i < n) return fail(i, 'trailing-text', "unexpected text after the closing ')'");
      this.pos = i;
      return false;
    }
    const kStart = i;
    let hash = 0;
    for (; i < n; i++) {
      const k = s.charCodeAt(i);
      if (!isKeywordChar(k)) break;
      hash = (Math.imul(hash, 31) + k) | 0;
    }
    if (i === kStart) {
      return fail(i, 'bad-keyword', `expected an option keyword, found '${s[i] ?? ''}'`);
    }
    const keyword = internSlice(s, kStart, i, hash);
    this.keyword = keyword;
    this.keywordStart = kStart;
    while (i < n && isBlank(s.charCodeAt(i))) i++;
    const c = s.charCodeAt(i);
    if (c === 59 /* ; */) {
      this.hasValue = false;
      this.pos = i + 1;
      return true;
    }
    if (c !== 58 /* : */) {
      if (i >= n || c === 41) {
        return fail(kStart, 'unterminated-option', `option '${keyword}' does not end with ';'`);
      }
      return fail(i, 'bad-keyword', `unexpected '${s[i] ?? ''}' after option keyword '${keyword}'`);
    }
    const end = this.findValueEnd(i + 1);
    if (typeof end !== 'number') return end;
    let vStart = i + 1;
    let vEnd = end;
    while (vStart < vEnd && isBlank(s.charCodeAt(vStart))) vStart++;
    while (vEnd > vStart && isBlank(s.charCodeAt(vEnd - 1))) vEnd--;
    this.hasValue = true;
    this.valueStart = vStart;
    this.valueEnd = vEnd;
    this.pos = end + 1;
    return true;
  }

  /** Offset of the `;` that ends the value starting at `from`. */
  private findValueEnd(from: number): number | Failure {
    const { s } = this;
    const n = s.length;
    // Only a quote that starts the value (after blanks and a `!`) opens a quoted string.
    let opening = from;
    while (opening < n && isBlank(s.charCodeAt(opening))) opening++;
    if (s.charCodeAt(opening) === 33 /* ! */) opening++;
    while (opening < n && isBlank(s.charCodeAt(opening))) opening++;
    let inQuote = false;
    let quoteAt = -1;
    let quotedSemicolon = -1;
    let i = from;
    for (; i < n; i++) {
      const v = s.charCodeAt(i);
      if (v === 92 /* \ */) i++;
      else if (v === 34 /* " */) {
        if (i === opening) {
          inQuote = true;
          quoteAt = i;
        } else if (inQuote && closesQuote(s, i + 1)) inQuote = false;
      } else if (v === 59 /* ; */) {
        if (!inQuote || !this.quoteAware) return i;
        if (quotedSemicolon < 0) quotedSemicolon = i;
      }
    }
    if (quotedSemicolon >= 0) {
      // The quotes do not balance (`pcre:"/[^"]+/";`): end where Suricata would.
      this.quoteAware = false;
      return quotedSemicolon;
    }
    if (inQuote) {
      return fail(
        quoteAt,
        'unterminated-string',
        `the quoted text in '${this.keyword}' never ends`,
      );
    }
    return fail(
      this.keywordStart,
      'unterminated-option',
      `option '${this.keyword}' does not end with ';'`,
    );
  }
}
