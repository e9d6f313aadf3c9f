// A rule written over several physical lines (each but the last ending in `\`) is one logical
// line. Joining follows Suricata and suricata-update: the trailing `\` (and the blanks after it)
// goes, a space takes its place, the next line follows as written. Offsets in the logical text
// map back to physical line and column for diagnostics.

export interface LogicalText {
  text: string;
  /** Logical offset where each physical line starts; `null` for a single physical line. */
  lineStarts: number[] | null;
  /** Logical offset of a line break that is not a continuation (two rules in one text), or -1. */
  strayBreak: number;
}

export interface Position {
  /** 0-based physical line within the rule text. */
  lineIndex: number;
  /** 1-based column within that physical line. */
  column: number;
}

/** Space, tab, vertical tab, form feed or carriage return (not a line feed). */
export function isBlank(c: number): boolean {
  // Most characters tested are not blank: one comparison rules them out.
  return c <= 32 && (c === 32 || (c >= 9 && c <= 13 && c !== 10));
}

/** Index just past the last non-blank character of text[start, end). */
export function trimEnd(text: string, start: number, end: number): number {
  let e = end;
  while (e > start && isBlank(text.charCodeAt(e - 1))) e--;
  return e;
}

/**
 * Physical lines of a text: `\n`, `\r\n` and a lone `\r` end a line, as Python's universal
 * newlines read them (suricata-update reads rule files so). Search positions are cached, so
 * reading every line is one pass.
 */
export class LineReader {
  /** End of the line's content (before its line break), after `read`. */
  end = 0;
  /** Start of the next line, after `read`. */
  next = 0;
  private nextLf: number;
  private nextCr: number;

  constructor(private readonly text: string) {
    this.nextLf = text.indexOf('\n');
    this.nextCr = text.indexOf('\r');
  }

  /** Reads the line starting at `pos` into `end` and `next`. */
  read(pos: number): void {
    const { text } = this;
    if (this.nextLf >= 0 && this.nextLf < pos) this.nextLf = text.indexOf('\n', pos);
    if (this.nextCr >= 0 && this.nextCr < pos) this.nextCr = text.indexOf('\r', pos);
    const lf = this.nextLf;
    const cr = this.nextCr;
    if (cr >= 0 && (lf < 0 || cr < lf)) {
      this.end = cr;
      this.next = text.charCodeAt(cr + 1) === 10 ? cr + 2 : cr + 1;
    } else if (lf >= 0) {
      this.end = lf;
      this.next = lf + 1;
    } else {
      this.end = text.length;
      this.next = text.length;
    }
  }
}

export function toLogical(raw: string): LogicalText {
  if (raw.indexOf('\n') < 0 && raw.indexOf('\r') < 0) {
    return { text: raw, lineStarts: null, strayBreak: -1 };
  }
  const lines = new LineReader(raw);
  const parts: string[] = [];
  const lineStarts: number[] = [];
  let length = 0;
  let pos = 0;
  let strayBreak = -1;
  for (;;) {
    lineStarts.push(length);
    lines.read(pos);
    if (lines.next >= raw.length && lines.end === raw.length) {
      parts.push(raw.slice(pos));
      break;
    }
    const end = trimEnd(raw, pos, lines.end);
    let piece: string;
    if (end > pos && raw.charCodeAt(end - 1) === 92 /* \ */) {
      piece = raw.slice(pos, end - 1) + ' ';
    } else {
      if (strayBreak < 0) strayBreak = length + (end - pos);
      piece = raw.slice(pos, end) + ' ';
    }
    parts.push(piece);
    length += piece.length;
    pos = lines.next;
  }
  return { text: parts.join(''), lineStarts, strayBreak };
}

export function locate(logical: LogicalText, offset: number): Position {
  const starts = logical.lineStarts;
  if (starts === null) return { lineIndex: 0, column: offset + 1 };
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { lineIndex: lo, column: offset - (starts[lo] ?? 0) + 1 };
}
