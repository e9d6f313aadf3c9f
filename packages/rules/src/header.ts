// The rule header: `[# ]action [protocol [src_addr src_port dir dst_addr dst_port]] (`.
// A hand-written scanner over the logical text, or over a rule's line within a whole file (the
// header is s[from, end)); every failure is reported with its offset in `s`.

import type { CharIndex } from './char-index.js';
import { isSimpleSpec, parseAddressSpec, parsePortSpec } from './endpoint.js';
import type { Direction, Endpoint } from './types.js';
import { detached, hashOf, internSlice } from './intern.js';
import { isBlank } from './logical-text.js';
import type { Failure } from './failure.js';
import { fail, isFailure } from './failure.js';

/**
 * Actions of Snort 2.9, Snort 3 and Suricata: Suricata 7 adds `config` (a rule that applies its
 * `config:` keyword without alerting), Suricata 8 adds `accept` and the scoped forms.
 */
export const RULE_ACTIONS: ReadonlySet<string> = new Set([
  'alert',
  'log',
  'pass',
  'drop',
  'reject',
  'rejectsrc',
  'rejectdst',
  'rejectboth',
  'sdrop',
  'activate',
  'dynamic',
  'accept',
  'config',
  'block',
  'react',
  'rewrite',
]);

/** Suricata 8 action scopes: `drop:flow`, `accept:hook`, … */
export const ACTION_SCOPES: ReadonlySet<string> = new Set(['packet', 'flow', 'tx', 'hook']);

export interface Header {
  enabled: boolean;
  action: string;
  protocol: string | null;
  source: Endpoint | null;
  direction: Direction | null;
  destination: Endpoint | null;
  /** Offset of the `(` that opens the options. */
  optionsStart: number;
}

/** Where the action starts: past blanks and any run of `#` and blanks (a disabled rule). */
export function skipDisabledPrefix(
  s: string,
  from = 0,
  n = s.length,
): { enabled: boolean; start: number } {
  let i = from;
  while (i < n && isBlank(s.charCodeAt(i))) i++;
  if (i >= n || s.charCodeAt(i) !== 35 /* # */) return { enabled: true, start: i };
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c !== 35 && !isBlank(c)) break;
    i++;
  }
  return { enabled: false, start: i };
}

const DROP_SCOPES = ['packet', 'flow'];

/**
 * The scopes each action takes in a Suricata 8 firewall rule (its firewall design docs and
 * parser: `accept` takes all four, the drop family and `pass` packet or flow, `config` packet
 * only). An action not listed takes none: `alert:flow` is no Suricata action.
 */
const SCOPES_OF: ReadonlyMap<string, readonly string[]> = new Map([
  ['accept', ['packet', 'flow', 'hook', 'tx']],
  ['drop', DROP_SCOPES],
  ['reject', DROP_SCOPES],
  ['rejectsrc', DROP_SCOPES],
  ['rejectdst', DROP_SCOPES],
  ['rejectboth', DROP_SCOPES],
  ['pass', ['packet', 'flow']],
  ['config', ['packet']],
]);

/** Checks one action, possibly scoped (`drop:flow`). */
function checkSingleAction(action: string): string | null {
  const colon = action.indexOf(':');
  const base = colon < 0 ? action : action.slice(0, colon);
  if (!RULE_ACTIONS.has(base)) return `unknown action '${action}'`;
  if (colon < 0) return null;
  const scope = action.slice(colon + 1);
  if (!ACTION_SCOPES.has(scope)) {
    return `unknown action scope in '${action}' (expected packet, flow, tx or hook)`;
  }
  const scopes = SCOPES_OF.get(base);
  if (scopes === undefined) return `action '${base}' takes no scope ('${action}')`;
  if (!scopes.includes(scope)) {
    return `action '${base}' takes the scope ${scopes.join(' or ')}, not '${scope}'`;
  }
  return null;
}

/**
 * Checks an action word: one action, or a Suricata 8 list (`accept:flow,alert`); returns the
 * problem or null.
 */
export function checkAction(action: string): string | null {
  if (action.indexOf(',') < 0) return checkSingleAction(action);
  for (const part of action.split(',')) {
    const problem = checkSingleAction(part);
    if (problem !== null) return problem;
  }
  return null;
}

/** End of a header token: stops at a blank or `(` outside brackets. */
function tokenEnd(s: string, start: number, n: number, what: string): number | Failure {
  let depth = 0;
  let i = start;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 91 /* [ */) depth++;
    else if (c === 93 /* ] */) {
      if (depth === 0) return fail(i, 'incomplete-header', `unbalanced ']' in ${what}`);
      depth--;
    } else if (c === 40 /* ( */ || (depth === 0 && isBlank(c))) break;
    else if (c === 41 /* ) */) return fail(i, 'incomplete-header', `unexpected ')' in ${what}`);
  }
  if (depth > 0) return fail(start, 'incomplete-header', `'[' in ${what} is never closed`);
  return i;
}

function skipBlanks(s: string, i: number, n: number): number {
  while (i < n && isBlank(s.charCodeAt(i))) i++;
  return i;
}

const ENDPOINT_PARTS = [
  'source address',
  'source port',
  'direction',
  'destination address',
  'destination port',
] as const;

function checkPart(value: string, offset: number, part: number): Failure | null {
  if (part === 2) {
    if (toDirection(value) !== null) return null;
    return fail(offset, 'bad-direction', `'${value}' is not a direction (expected ->, <> or =>)`);
  }
  if (isSimpleSpec(value)) return null;
  const isPort = part === 1 || part === 4;
  const result = isPort ? parsePortSpec(value) : parseAddressSpec(value);
  if (result.ok) return null;
  const { offset: at, message } = result.error;
  return fail(
    offset + at,
    isPort ? 'bad-port' : 'bad-address',
    `${ENDPOINT_PARTS[part]}: ${message}`,
  );
}

function toDirection(value: string): Direction | null {
  if (value === '->') return '->';
  if (value === '<>') return '<>';
  if (value === '=>') return '=>';
  return null;
}

/** A header read before: the words of s[start, `(`), which decide everything but `enabled`. */
interface KnownHeader {
  action: string;
  protocol: string | null;
  source: Endpoint | null;
  direction: Direction | null;
  destination: Endpoint | null;
}

/**
 * Headers repeat across the rules of a ruleset (`alert tcp $EXTERNAL_NET any -> $HOME_NET any`):
 * the text from the action to the `(` is looked up here before it is read. Bounded, emptied
 * when full; keys and values are copies, never views into a caller's text.
 */
const knownHeaders = new Map<string, KnownHeader>();
const MAX_KNOWN_HEADERS = 4096;

function remember(key: string, header: Header): void {
  if (knownHeaders.size >= MAX_KNOWN_HEADERS) knownHeaders.clear();
  // Frozen: the rules that share this header share these objects.
  const copy = (e: Endpoint | null): Endpoint | null =>
    e === null ? null : Object.freeze({ address: detached(e.address), port: detached(e.port) });
  knownHeaders.set(detached(key), {
    action: detached(header.action),
    protocol: header.protocol === null ? null : detached(header.protocol),
    source: copy(header.source),
    direction: header.direction,
    destination: copy(header.destination),
  });
}

/** Reads the header of the rule in s[from, n); `index`, when `s` is a file, is its own. */
export function parseHeader(
  s: string,
  from: number,
  n: number,
  index: CharIndex | null = null,
): Header | Failure {
  const { enabled, start } = skipDisabledPrefix(s, from, n);
  const open = index === null ? s.indexOf('(', start) : index.paren.from(start);
  if (open < 0 || open >= n) return readHeader(s, start, n, enabled);
  const key = s.slice(start, open);
  const known = knownHeaders.get(key);
  if (known === undefined) {
    const header = readHeader(s, start, n, enabled);
    if (!isFailure(header) && header.optionsStart === open) remember(key, header);
    return header;
  }
  return {
    enabled,
    action: known.action,
    protocol: known.protocol,
    source: known.source,
    direction: known.direction,
    destination: known.destination,
    optionsStart: open,
  };
}

/** Reads the header whose action starts at `start` (past any `#`), word by word. */
function readHeader(s: string, start: number, n: number, enabled: boolean): Header | Failure {
  let i = start;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (isBlank(c) || c === 40) break;
    i++;
  }
  if (i === start) return fail(start, 'unknown-action', 'expected a rule action (alert, drop, …)');
  const action = internSlice(s, start, i, hashOf(s, start, i));
  const actionProblem = checkAction(action);
  if (actionProblem !== null) return fail(start, 'unknown-action', actionProblem);

  const header: Header = {
    enabled,
    action,
    protocol: null,
    source: null,
    direction: null,
    destination: null,
    optionsStart: 0,
  };
  i = skipBlanks(s, i, n);
  if (i < n && s.charCodeAt(i) !== 40) {
    const protoStart = i;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (isBlank(c) || c === 40) break;
      if (c === 41) return fail(i, 'incomplete-header', "unexpected ')' in the protocol");
      i++;
    }
    header.protocol = internSlice(s, protoStart, i, hashOf(s, protoStart, i));
    i = skipBlanks(s, i, n);
    if (i < n && s.charCodeAt(i) !== 40) {
      const parts = ['', '', '', '', ''];
      for (let part = 0; part < 5; part++) {
        const what = ENDPOINT_PARTS[part] ?? '';
        if (i >= n || s.charCodeAt(i) === 40) {
          return fail(i, 'incomplete-header', `header ends before its ${what}`);
        }
        const end = tokenEnd(s, i, n, what);
        if (typeof end !== 'number') return end;
        const value = end - i <= 32 ? internSlice(s, i, end, hashOf(s, i, end)) : s.slice(i, end);
        const problem = checkPart(value, i, part);
        if (problem !== null) return problem;
        parts[part] = value;
        i = skipBlanks(s, end, n);
      }
      header.source = { address: parts[0] ?? '', port: parts[1] ?? '' };
      header.direction = toDirection(parts[2] ?? '');
      header.destination = { address: parts[3] ?? '', port: parts[4] ?? '' };
    }
  }
  if (i >= n) return fail(i, 'missing-options', "the rule has no options: expected '('");
  if (s.charCodeAt(i) !== 40) {
    return fail(i, 'trailing-text', `expected '(' after the header, found '${s[i] ?? ''}'`);
  }
  header.optionsStart = i;
  return header;
}
