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

export function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 11 || c === 12;
}

/** Index just past the last non-blank character of text[start, end). */
export function trimEnd(text: string, start: number, end: number): number {
  let e = end;
  while (e > start && isBlank(text.charCodeAt(e - 1))) e--;
  return e;
}

export function toLogical(raw: string): LogicalText {
  let nl = raw.indexOf('\n');
  if (nl < 0) return { text: raw, lineStarts: null, strayBreak: -1 };
  const parts: string[] = [];
  const lineStarts: number[] = [];
  let length = 0;
  let pos = 0;
  let strayBreak = -1;
  for (;;) {
    lineStarts.push(length);
    if (nl < 0) {
      parts.push(raw.slice(pos));
      break;
    }
    const end = trimEnd(raw, pos, nl);
    let piece: string;
    if (end > pos && raw.charCodeAt(end - 1) === 92 /* \ */) {
      piece = raw.slice(pos, end - 1) + ' ';
    } else {
      if (strayBreak < 0) strayBreak = length + (end - pos);
      piece = raw.slice(pos, end) + ' ';
    }
    parts.push(piece);
    length += piece.length;
    pos = nl + 1;
    nl = raw.indexOf('\n', pos);
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
