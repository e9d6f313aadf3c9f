// A rule's options, split in order, and the well-known ones read on the way: msg, gid, sid,
// rev, classtype, priority, metadata, references and flowbits.

import type { CharIndex } from './char-index.js';
import type { Failure } from './failure.js';
import { fail } from './failure.js';
import { isBlank } from './logical-text.js';
import { OptionScanner } from './option-scanner.js';
import type { MetadataEntry, RuleOption, RuleReference } from './types.js';

export interface OptionFields {
  msg: string | null;
  gid: number;
  sid: number;
  rev: number | null;
  classtype: string | null;
  priority: number | null;
  metadata: readonly MetadataEntry[];
  references: readonly RuleReference[];
  flowbits: readonly string[];
}

// Most rules have no references or flowbits, and many no metadata: they share these empty
// lists instead of each allocating its own (a rules file is tens of thousands of rules).
export const NO_METADATA: readonly MetadataEntry[] = Object.freeze([]);
export const NO_REFERENCES: readonly RuleReference[] = Object.freeze([]);
export const NO_FLOWBITS: readonly string[] = Object.freeze([]);

/** A list of the rule being read that can grow: a new one in place of the shared empty one. */
function ownList<T>(list: readonly T[], shared: readonly T[]): T[] {
  return list === shared ? [] : (list as T[]);
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

/** Offset of the first `c` in s[start, end), or `end`: bounded, as `s` may be a whole file. */
function indexIn(s: string, c: number, start: number, end: number): number {
  let i = start;
  while (i < end && s.charCodeAt(i) !== c) i++;
  return i;
}

/** Appends the entries of the metadata value s[start, end): `k v, k v`. */
function addMetadata(
  target: MetadataEntry[],
  s: string,
  start: number,
  end: number,
  index: CharIndex,
): void {
  let i = start;
  while (i < end) {
    let stop = index.comma.from(i);
    if (stop < 0 || stop > end) stop = end;
    let a = i;
    while (a < stop && isBlank(s.charCodeAt(a))) a++;
    let k = a;
    while (k < stop && !isBlank(s.charCodeAt(k))) k++;
    if (k > a) {
      let v = k;
      while (v < stop && isBlank(s.charCodeAt(v))) v++;
      let b = stop;
      while (b > v && isBlank(s.charCodeAt(b - 1))) b--;
      // Sliced, not interned: a lookup cost more than the short copy it saves.
      target.push({ key: s.slice(a, k), value: v < b ? s.slice(v, b) : '' });
    }
    i = stop + 1;
  }
}

function readReference(s: string, start: number, end: number): RuleReference {
  const comma = indexIn(s, 44 /* , */, start, end);
  if (comma === end) return { system: s.slice(start, end), id: '' };
  return { system: s.slice(start, comma).trim(), id: s.slice(comma + 1, end).trim() };
}

/** The keywords read here; each needs a value (Suricata and Snort refuse them bare). */
const enum Known {
  Other,
  Msg,
  Sid,
  Gid,
  Rev,
  Priority,
  Classtype,
  Metadata,
  Reference,
  Flowbits,
}

/** The well-known keywords, at their `Known` index. */
const KNOWN_WORDS = [
  '',
  'msg',
  'sid',
  'gid',
  'rev',
  'priority',
  'classtype',
  'metadata',
  'reference',
  'flowbits',
] as const;

/**
 * `Known` by keyword length (below 16) and first character (keywords are ASCII): no two of the
 * well-known keywords share both, and most other options differ from each in one of them.
 */
const KNOWN_BY_SHAPE = new Uint8Array(16 << 7);
for (let known = 1; known < KNOWN_WORDS.length; known++) {
  const word = KNOWN_WORDS[known] ?? '';
  KNOWN_BY_SHAPE[(word.length << 7) | word.charCodeAt(0)] = known;
}

/** Which well-known keyword s[start, end) is (no string built). */
function knownKeyword(s: string, start: number, end: number): Known {
  const length = end - start;
  if (length >= 16) return Known.Other;
  const known: Known = KNOWN_BY_SHAPE[(length << 7) | (s.charCodeAt(start) & 127)] ?? 0;
  if (known === Known.Other) return Known.Other;
  const word = KNOWN_WORDS[known];
  for (let k = 1; k < length; k++) {
    if (s.charCodeAt(start + k) !== word.charCodeAt(k)) return Known.Other;
  }
  return known;
}

function readNumber(
  scan: OptionScanner,
  fields: OptionFields,
  s: string,
  known: Known,
): Failure | null {
  const at = scan.keywordStart;
  const number = readUint(s, scan.valueStart, scan.valueEnd);
  if (number < 0) {
    return fail(at, 'bad-number', `${scan.keyword()} '${scan.value() ?? ''}' is not a number`);
  }
  if (number > MAX_U32) {
    return fail(at, 'bad-number', `${scan.keyword()} ${scan.value() ?? ''} is above ${MAX_U32}`);
  }
  if (known === Known.Sid) {
    if (number === 0) return fail(at, 'bad-number', 'sid 0 is not allowed');
    fields.sid = number;
  } else if (known === Known.Gid) fields.gid = number;
  else if (known === Known.Rev) fields.rev = number;
  else fields.priority = number;
  return null;
}

/**
 * Splits the options of `s` from the `(` at `open` to the closing `)`, which must end the text
 * at `end` (blanks aside), and reads the well-known ones into `fields` (a rule being built,
 * its option fields at their defaults: gid 1, sid -1, nulls and the shared empty lists). The options themselves are not kept: `readOptionList` gives
 * them when asked (an import reads only the well-known ones).
 */
export function parseOptions<T extends OptionFields>(
  s: string,
  open: number,
  end: number,
  index: CharIndex,
  fields: T,
): T | Failure {
  const scan = new OptionScanner(s, open, end, index);
  for (;;) {
    const more = scan.next();
    if (more === false) break;
    if (more !== true) return more;
    const known = knownKeyword(s, scan.keywordStart, scan.keywordEnd);
    if (known === Known.Other) continue;
    if (!scan.hasValue) {
      return fail(scan.keywordStart, 'missing-value', `option '${scan.keyword()}' needs a value`);
    }
    switch (known) {
      case Known.Sid:
      case Known.Gid:
      case Known.Rev:
      case Known.Priority: {
        const failure = readNumber(scan, fields, s, known);
        if (failure !== null) return failure;
        break;
      }
      case Known.Msg:
        fields.msg = readMsg(s, scan.valueStart, scan.valueEnd);
        break;
      case Known.Classtype:
        fields.classtype = s.slice(scan.valueStart, scan.valueEnd);
        break;
      case Known.Metadata: {
        const metadata = ownList(fields.metadata, NO_METADATA);
        addMetadata(metadata, s, scan.valueStart, scan.valueEnd, index);
        fields.metadata = metadata;
        break;
      }
      case Known.Reference: {
        const references = ownList(fields.references, NO_REFERENCES);
        references.push(readReference(s, scan.valueStart, scan.valueEnd));
        fields.references = references;
        break;
      }
      case Known.Flowbits: {
        const flowbits = ownList(fields.flowbits, NO_FLOWBITS);
        flowbits.push(s.slice(scan.valueStart, scan.valueEnd));
        fields.flowbits = flowbits;
        break;
      }
    }
  }
  if (fields.sid < 0) return missingSid(s, open, end);
  return fields;
}

/**
 * The rule has no sid option. A `sid:` written inside another option's value (its `;` missing:
 * `msg:"x" sid:1;`) is named, as that is nearly always why.
 */
function missingSid(s: string, open: number, end: number): Failure {
  const swallowed = /(^|[\s;"])sid\s*:/.exec(s.slice(open, end));
  if (swallowed === null) return fail(open, 'missing-sid', 'the rule has no sid');
  const at = open + swallowed.index + (swallowed[1]?.length ?? 0);
  return fail(
    at,
    'missing-sid',
    "the rule has no sid option: this 'sid:' is read as part of the option before it (is a ';' missing?)",
  );
}

/**
 * Every option of the option list at `open` (in a text that `parseOptions` accepted), in
 * order: keyword and raw value.
 */
export function readOptionList(s: string, open: number, end: number): RuleOption[] {
  const options: RuleOption[] = [];
  const scan = new OptionScanner(s, open, end);
  while (scan.next() === true) options.push({ keyword: scan.keyword(), value: scan.value() });
  return options;
}
