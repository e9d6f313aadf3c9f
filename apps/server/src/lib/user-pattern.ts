// Regular expressions that users write (suricata-update `re:` matchers, modify.conf patterns)
// run on RE2 (re2js, pure JavaScript): matching takes time linear in the text, whatever the
// pattern, so `(a|a)*b` cannot hold the event loop the way a backtracking engine would. What RE2
// cannot run in linear time (backreferences, lookahead and lookbehind) is refused, and so is a
// pattern whose compiled program would be large enough to make each match slow.
import { LRUCache } from 'lru-cache';
import { RE2JS } from 're2js';

export type UserPattern = RE2JS;

/** Longer patterns are refused before anything else is done with them. */
export const MAX_PATTERN_LENGTH = 2000;
/** Refused above this many compiled instructions (estimated): each match costs up to this per character. */
export const MAX_PATTERN_SIZE = 2000;

const cache = new LRUCache<string, UserPattern | { error: string }>({ max: 1000 });

/**
 * Compiles a user's pattern with Python `re` syntax as far as RE2 has it (suricata-update runs
 * matchers with Python: `\Z`, `\uXXXX`, `\UXXXXXXXX` and `{,n}` are translated). Returns an error
 * text, without the pattern, for one that cannot be run safely.
 */
export function compileUserPattern(
  pattern: string,
  options: { caseInsensitive: boolean },
): UserPattern | { error: string } {
  const key = `${options.caseInsensitive ? 'i' : '-'}${pattern}`;
  let compiled = cache.get(key);
  if (compiled === undefined) {
    compiled = compile(pattern, options.caseInsensitive);
    cache.set(key, compiled);
  }
  return compiled;
}

function compile(pattern: string, caseInsensitive: boolean): UserPattern | { error: string } {
  if (pattern.length > MAX_PATTERN_LENGTH)
    return { error: `longer than ${MAX_PATTERN_LENGTH} characters` };
  const translated = fromPython(pattern);
  const tooComplex = {
    error: `too complex (its repetitions expand to more than ${MAX_PATTERN_SIZE} steps)`,
  };
  // The estimate keeps a huge program from being built at all (that alone can take seconds);
  // the compiled program's own size decides.
  if (estimateSize(translated) > 4 * MAX_PATTERN_SIZE) return tooComplex;
  try {
    const compiled = RE2JS.compile(translated, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
    return compiled.programSize() > MAX_PATTERN_SIZE ? tooComplex : compiled;
  } catch (error) {
    const message = (error as Error).message.replace(/^error parsing regexp: /, '');
    return { error: `${message}${unsupportedHint(message)}` };
  }
}

/** Backreferences (`\1`, `(?P=name)`) and lookaround, as RE2's parser reports them. */
const NOT_LINEAR = /escape sequence: `\\[1-9]|`\(\?P[=`]|`\(\?[=!]|named capture: `\(\?<[=!]/;

function unsupportedHint(message: string): string {
  if (NOT_LINEAR.test(message))
    return ' (backreferences and lookaround cannot run in linear time and are not supported)';
  return '';
}

/**
 * Python `re` spellings RE2 spells otherwise. Walks the pattern once, keeping escapes and
 * character classes whole so that `\\Z` (a backslash, then Z) stays what it is.
 */
export function fromPython(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] ?? '';
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      const hex = next === 'u' ? 4 : next === 'U' ? 8 : 0;
      const digits = pattern.slice(i + 2, i + 2 + hex);
      if (hex > 0 && digits.length === hex && /^[0-9a-fA-F]+$/.test(digits)) {
        out += `\\x{${digits}}`;
        i += 1 + hex;
      } else if (next === 'Z' && !inClass) {
        out += '\\z';
        i += 1;
      } else {
        out += c + next;
        i += 1;
      }
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
      // A `]` right after `[` or `[^` is a literal member.
      if (pattern[i + 1] === '^') out += pattern[++i];
      if (pattern[i + 1] === ']') out += pattern[++i];
    } else if (c === '{' && /^\{,\d+\}/.test(pattern.slice(i, i + 12))) {
      out += '{0';
    } else {
      out += c;
    }
  }
  return out;
}

interface Level {
  /** Instructions of the alternatives already closed by `|`. */
  closed: number;
  /** Instructions of the alternative being read. */
  branch: number;
  /** Instructions of its last atom, which a following repetition copies. */
  last: number;
}

const REPEAT = /\{(\d+)(?:(,)(\d*))?\}/y;

/**
 * About how many instructions RE2 compiles the pattern to (as its parser's size check counts
 * them): a counted repetition copies what it repeats, so `(x{100}){10}` is a thousand. Only an
 * estimate, read without a full parse; RE2 itself reports malformed patterns.
 */
export function estimateSize(pattern: string): number {
  const stack: Level[] = [];
  let level: Level = { closed: 0, branch: 0, last: 0 };
  const atom = (size: number) => {
    level.branch += size;
    level.last = size;
  };
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        const stop = end < 0 ? pattern.length : end;
        level.branch += stop - (i + 2);
        level.last = 1;
        i = end < 0 ? stop : stop + 2;
        continue;
      }
      const braced = (next === 'x' || next === 'p' || next === 'P') && pattern[i + 2] === '{';
      const close = braced ? pattern.indexOf('}', i) : -1;
      i = close >= 0 ? close + 1 : i + 2;
      atom(1);
    } else if (c === '[') {
      i = classEnd(pattern, i);
      atom(1);
    } else if (c === '(') {
      stack.push(level);
      level = { closed: 0, branch: 0, last: 0 };
      i = groupBodyStart(pattern, i);
    } else if (c === ')') {
      const size = level.closed + level.branch + 2;
      level = stack.pop() ?? { closed: 0, branch: 0, last: 0 };
      atom(size);
      i += 1;
    } else if (c === '|') {
      level.closed += level.branch + 1;
      level.branch = 0;
      level.last = 0;
      i += 1;
    } else if (c === '*' || c === '+' || c === '?') {
      level.branch += 2;
      i += 1;
    } else if (c === '{' && matchRepeat(pattern, i)) {
      const [length, min, max] = matchRepeat(pattern, i) ?? [0, 0, 0];
      const copies = Math.max(min, max, 1);
      // x{n,m} is n copies of x and m-n optional ones; x{n,} n copies and a star.
      level.branch += level.last * (copies - 1) + (copies - min) + 1;
      level.last *= copies;
      i += length;
    } else {
      atom(1);
      i += 1;
    }
  }
  while (stack.length > 0) {
    const size = level.closed + level.branch + 2;
    level = stack.pop() ?? level;
    atom(size);
  }
  return level.closed + level.branch;
}

function matchRepeat(pattern: string, at: number): [number, number, number] | undefined {
  REPEAT.lastIndex = at;
  const m = REPEAT.exec(pattern);
  if (!m) return undefined;
  const min = Number(m[1]);
  const max = m[2] === undefined ? min : m[3] === '' ? min : Number(m[3]);
  return [m[0].length, min, max];
}

/** Past `(`, `(?:`, `(?i:`, `(?P<name>` or `(?<name>`; at the `)` of `(?i)`. */
function groupBodyStart(pattern: string, open: number): number {
  if (pattern[open + 1] !== '?') return open + 1;
  const after = open + 2;
  if (pattern[after] === 'P' || pattern[after] === '<') {
    const end = pattern.indexOf('>', after);
    return end < 0 ? after : end + 1;
  }
  let i = after;
  while (i < pattern.length && /[a-zA-Z-]/.test(pattern[i] ?? '')) i += 1;
  return pattern[i] === ':' ? i + 1 : i;
}

/** The index just past the `]` that closes the class opened at `start`. */
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i += 1;
  if (pattern[i] === ']') i += 1;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '\\') i += 2;
    else if (c === '[' && pattern[i + 1] === ':') {
      const end = pattern.indexOf(':]', i + 2);
      i = end < 0 ? i + 1 : end + 2;
    } else if (c === ']') return i + 1;
    else i += 1;
  }
  return pattern.length;
}
