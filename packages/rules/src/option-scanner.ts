// Splits the option list `(keyword[:value]; …)` one option at a time, without building strings:
// a keyword and a value are ranges of the text, sliced only by whoever needs them. The text may be a whole file: the option list ends at `end`.
//
// A `;` ends an option unless it is escaped (`\;`) or inside double quotes, so `pcre:"/a;b/"`
// is one option; `\\` is an escaped backslash, so `content:"a\\";` ends there. Only a quote
// that starts a value (after blanks and a `!`) opens a string, and it closes only before `;`,
// `,`, `)` or the end. When the quotes of the rest of the rule do not balance, an option ends at
// its first unescaped `;`, as in Suricata (whose splitter ignores quotes).

import type { Failure } from './failure.js';
import { fail } from './failure.js';
import { CharIndex } from './char-index.js';
import { hashOf, internSlice } from './intern.js';
import { isBlank } from './logical-text.js';

/** 1 for the ASCII characters of an option keyword: letters, digits, `_`, `-` and `.`. */
const KEYWORD_CHARS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9_.-]/.test(ch)) KEYWORD_CHARS[c] = 1;
}

function isKeywordChar(c: number): boolean {
  return c < 128 && KEYWORD_CHARS[c] === 1;
}

/**
 * A `"` inside a quoted value closes it only when what follows (blanks aside) ends the value or
 * a part of it: `;`, `,` (Snort 3 `content:"x",nocase`), `)` or the end. Otherwise it is a
 * quote inside the value (`pcre:"/[^"]+/"`).
 */
function closesQuote(s: string, from: number, end: number): boolean {
  let j = from;
  while (j < end && isBlank(s.charCodeAt(j))) j++;
  if (j >= end) return true;
  const c = s.charCodeAt(j);
  return c === 59 || c === 44 || c === 41;
}

export class OptionScanner {
  /** The current option's keyword is s[keywordStart, keywordEnd). */
  keywordStart = 0;
  keywordEnd = 0;
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
    /** Where the text of the rule ends (the closing `)` must be its last non-blank). */
    private readonly end: number,
    /** Shared by the rules of one file, so that its searches never cover a character twice. */
    private readonly index: CharIndex = new CharIndex(s),
  ) {
    this.pos = open + 1;
  }

  /** The current option's keyword (an interned string: keywords repeat in every rule). */
  keyword(): string {
    const { s, keywordStart: start, keywordEnd: end } = this;
    return internSlice(s, start, end, hashOf(s, start, end));
  }

  /** The value as written (quotes and escapes kept), or null for a bare keyword. */
  value(): string | null {
    return this.hasValue ? this.s.slice(this.valueStart, this.valueEnd) : null;
  }

  /** Reads the next option: true, false after the closing `)`, or the failure. */
  next(): boolean | Failure {
    const { s, end: n } = this;
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
    while (i < n && isKeywordChar(s.charCodeAt(i))) i++;
    if (i === kStart) {
      return fail(i, 'bad-keyword', `expected an option keyword, found '${s[i] ?? ''}'`);
    }
    this.keywordStart = kStart;
    this.keywordEnd = i;
    while (i < n && isBlank(s.charCodeAt(i))) i++;
    const c = s.charCodeAt(i);
    if (c === 59 /* ; */) {
      this.hasValue = false;
      this.pos = i + 1;
      return true;
    }
    if (c !== 58 /* : */) {
      if (i >= n || c === 41) {
        return fail(
          kStart,
          'unterminated-option',
          `option '${this.keyword()}' does not end with ';'`,
        );
      }
      return fail(
        i,
        'bad-keyword',
        `unexpected '${s[i] ?? ''}' after option keyword '${this.keyword()}'`,
      );
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
    const { s, end: n } = this;
    // Only a quote that starts the value (after blanks and a `!`) opens a quoted string.
    let opening = from;
    while (opening < n && isBlank(s.charCodeAt(opening))) opening++;
    if (s.charCodeAt(opening) === 33 /* ! */) opening++;
    while (opening < n && isBlank(s.charCodeAt(opening))) opening++;
    const quick = this.quickValueEnd(opening);
    return quick >= 0 ? quick : this.scanValueEnd(from, opening);
  }

  /**
   * The common case by native searches: no `\` before the end, and a quoted value closed by
   * its next `"`. -1 when the character loop (`scanValueEnd`) has to decide.
   */
  private quickValueEnd(opening: number): number {
    const { s, end: n, index } = this;
    let from = opening;
    if (opening < n && s.charCodeAt(opening) === 34 /* " */) {
      if (!this.quoteAware) return -1;
      const close = index.quote.from(opening + 1);
      if (close < 0 || close >= n) return -1;
      const escape = index.backslash.from(opening + 1);
      if (escape >= 0 && escape < close) return -1;
      if (!closesQuote(s, close + 1, n)) return -1;
      from = close + 1;
    }
    // Unquoted from here: quotes no longer matter, only escapes.
    const semicolon = index.semicolon.from(from);
    if (semicolon < 0 || semicolon >= n) return -1;
    const escape = index.backslash.from(from);
    if (escape >= 0 && escape < semicolon) return -1;
    return semicolon;
  }

  /** `findValueEnd` one character at a time, for escapes, inner quotes and errors. */
  private scanValueEnd(from: number, opening: number): number | Failure {
    const { s, end: n } = this;
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
        } else if (inQuote && closesQuote(s, i + 1, n)) inQuote = false;
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
        `the quoted text in '${this.keyword()}' never ends`,
      );
    }
    return fail(
      this.keywordStart,
      'unterminated-option',
      `option '${this.keyword()}' does not end with ';'`,
    );
  }
}
