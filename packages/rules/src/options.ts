// A rule's options, split in order, and the well-known ones read on the way: msg, gid, sid,
// rev, classtype, priority, metadata, references and flowbits.

import type { Failure } from './failure.js';
import { fail } from './failure.js';
import { isBlank } from './logical-text.js';
import { OptionScanner } from './option-scanner.js';
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

function readNumber(scan: OptionScanner, fields: OptionFields, s: string): Failure | null {
  const { keyword, keywordStart: at } = scan;
  const number = readUint(s, scan.valueStart, scan.valueEnd);
  if (number < 0)
    return fail(at, 'bad-number', `${keyword} '${scan.value() ?? ''}' is not a number`);
  if (number > MAX_U32) {
    return fail(at, 'bad-number', `${keyword} ${scan.value() ?? ''} is above ${MAX_U32}`);
  }
  if (keyword === 'sid') {
    if (number === 0) return fail(at, 'bad-number', 'sid 0 is not allowed');
    fields.sid = number;
  } else if (keyword === 'gid') fields.gid = number;
  else if (keyword === 'rev') fields.rev = number;
  else fields.priority = number;
  return null;
}

/**
 * Splits the options of `s` from the `(` at `open` to the closing `)`, which must end the text
 * (blanks aside), and reads the well-known ones.
 */
export function parseOptions(s: string, open: number): OptionFields | Failure {
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
  const scan = new OptionScanner(s, open);
  for (;;) {
    const more = scan.next();
    if (typeof more !== 'boolean') return more;
    if (!more) break;
    const { keyword } = scan;
    const value = scan.value();
    fields.options.push({ keyword, value });
    if (value === null) {
      if (NEEDS_VALUE.has(keyword)) {
        return fail(scan.keywordStart, 'missing-value', `option '${keyword}' needs a value`);
      }
      continue;
    }
    switch (keyword) {
      case 'sid':
      case 'gid':
      case 'rev':
      case 'priority': {
        const failure = readNumber(scan, fields, s);
        if (failure !== null) return failure;
        break;
      }
      case 'msg':
        fields.msg = readMsg(s, scan.valueStart, scan.valueEnd);
        break;
      case 'classtype':
        fields.classtype = value;
        break;
      case 'metadata':
        addMetadata(fields.metadata, s, scan.valueStart, scan.valueEnd);
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
