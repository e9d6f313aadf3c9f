// `indexOf` with memory, for scanners that move forward through a text (a whole rules file):
// the next `;`, `"`, `\`, `(` or `,` is searched for once and reused until the scanner passes it, so
// each character of the file is searched at most once per kind, natively.

class NextChar {
  private found = -1;
  /** Where the last search started; `found` is the first match at or after it. */
  private searchedFrom = Number.POSITIVE_INFINITY;

  constructor(
    private readonly s: string,
    private readonly ch: string,
  ) {}

  /** Index of the first `ch` at or after `from`, or -1. */
  from(from: number): number {
    if (this.searchedFrom > from || (this.found >= 0 && this.found < from)) {
      this.searchedFrom = from;
      this.found = this.s.indexOf(this.ch, from);
    }
    return this.found;
  }
}

/** The next `;`, `"`, `\` (option values), `(` (end of a header) and `,` (lists) of a text. */
export class CharIndex {
  readonly semicolon: NextChar;
  readonly quote: NextChar;
  readonly backslash: NextChar;
  readonly paren: NextChar;
  readonly comma: NextChar;

  constructor(readonly text: string) {
    this.semicolon = new NextChar(text, ';');
    this.quote = new NextChar(text, '"');
    this.backslash = new NextChar(text, '\\');
    this.paren = new NextChar(text, '(');
    this.comma = new NextChar(text, ',');
  }
}
