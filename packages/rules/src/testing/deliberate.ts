// The deliberate differences between our parser and the reference (suricata-update 1.2.7's
// `suricata.update.rule`). Each is decided from the rule text or the reference's own record,
// never from a list of expected answers, and each says why. Test code only.

import { RULE_ACTIONS } from '../header.js';
import { ruleOptions } from '../parse-rule.js';
import type { Rule } from '../types.js';
import type { OracleRule } from './corpus.js';

/** The only actions suricata-update 1.2.7 accepts (its `actions` tuple). */
const REFERENCE_ACTIONS = new Set([
  'alert',
  'log',
  'pass',
  'activate',
  'dynamic',
  'drop',
  'reject',
  'sdrop',
]);

/**
 * Why the reference can never parse a rule we parse (Suricata 8 and Snort 3 syntax it does not
 * know), or null.
 */
export function whyReferenceRefuses(rule: Rule): string | null {
  if (rule.action.includes(',')) {
    return `Suricata 8 action list '${rule.action}': the reference knows one action per rule`;
  }
  if (rule.action.includes(':')) {
    return `Suricata 8 scoped action '${rule.action}': the reference knows no action scopes`;
  }
  if (rule.action === 'config') {
    return "Suricata 7 action 'config': suricata-update has it from 1.3 on, the reference (1.2.7) not";
  }
  if (!REFERENCE_ACTIONS.has(rule.action) && RULE_ACTIONS.has(rule.action)) {
    return `action '${rule.action}' (Suricata/Snort 3) is not in the reference's action list`;
  }
  if (rule.protocol !== null && rule.source === null) {
    return `Snort 3 rule without addresses ('${rule.action} ${rule.protocol} (…)'): the reference needs a full header`;
  }
  return null;
}

/** One option as the reference splits it. */
interface ReferenceOption {
  name: string;
  value: string | null;
}

/**
 * The reference's own option split, step for step (its `find_opt_end`): a `;` not preceded by a
 * backslash ends an option, quotes or not; `\\;` counts as escaped; after an escaped `;` its
 * search restarts two characters further on from where it started, which can jump over a `;`.
 */
export function referenceOptions(raw: string): ReferenceOption[] {
  const open = raw.indexOf('(');
  const close = raw.lastIndexOf(')');
  if (open < 0 || close < open) return [];
  let rest = raw.slice(open + 1, close).trim();
  const options: ReferenceOption[] = [];
  while (rest.length > 0) {
    const end = referenceOptionEnd(rest);
    if (end < 0) break;
    const option = rest.slice(0, end).trim();
    const colon = option.indexOf(':');
    options.push(
      colon < 0
        ? { name: option, value: null }
        : { name: option.slice(0, colon).trim(), value: option.slice(colon + 1).trim() },
    );
    rest = rest.slice(end + 1).trim();
  }
  return options;
}

/** Its `find_opt_end` to the letter, Python's negative indexes included; -1 where it fails. */
function referenceOptionEnd(options: string): number {
  let offset = 0;
  for (;;) {
    const found = options.slice(offset).indexOf(';');
    const before = offset + found - 1;
    if (before >= options.length || before < -options.length) return -1; // IndexError
    const ch = before < 0 ? options[options.length + before] : options[before];
    if (ch !== '\\') return offset + found;
    offset += 2;
  }
}

export function referenceOptionNames(raw: string): string[] {
  return referenceOptions(raw).map((option) => option.name);
}

/** What is left of a header after the reference took its seven words (its state machine). */
function referenceHeaderRest(header: string): string {
  let rest = header.trim();
  for (let state = 0; state < 7 && rest.length > 0; state++) {
    const end = rest[0] === '[' ? rest.indexOf(']') + 1 : rest.indexOf(' ');
    if (end <= 0) return '';
    rest = rest.slice(end).trim();
  }
  return rest;
}

/**
 * How the reference's reading of a rule text departs from Suricata's, or null. It splits the
 * header on single spaces only and ends a `[…]` list at its first `]`; it ends options at every
 * unescaped `;` even inside quotes, reads `\\;` as an escaped `;`, and can jump over the `;`
 * right after a `\;`.
 */
export function referenceQuirk(text: string): string | null {
  const open = text.indexOf('(');
  const header = (open < 0 ? text : text.slice(0, open)).replace(/^[\s#]*/, '');
  if (header.includes('\t')) return 'the header has tabs: the reference splits it on spaces only';
  let depth = 0;
  for (let i = 0; i < header.length; i++) {
    const ch = header[i] ?? '';
    if (ch === '[') {
      if (depth > 0) return 'a nested list in the header: the reference ends a list at its first ]';
      depth++;
    } else if (ch === ']') {
      depth = Math.max(0, depth - 1);
      if (depth === 0 && i + 1 < header.length && !/[\s\],]/.test(header[i + 1] ?? '')) {
        return "text right after a list's ']': the reference starts a new header word there";
      }
    } else if (depth > 0 && /\s/.test(ch)) {
      return 'a blank inside a header list: the reference splits the header there';
    }
  }
  if (referenceHeaderRest(header).length > 0) {
    return 'the header has extra words: the reference ignores them, Suricata refuses the rule';
  }
  const options = open < 0 ? '' : text.slice(open);
  if (options.includes('\\;;')) return "'\\;;': the reference jumps over the ';' after '\\;'";
  if (options.includes('\\\\;')) return "the reference reads '\\\\;' as an escaped ';'";
  if (/"[^"]*[^\\"];[^"]*"\s*[;,)]/.test(options)) {
    return 'a quoted value with a ; inside: the reference ends the option there';
  }
  return null;
}

const PORT_ATOM = /^(any|\$\w+|\d+|\d+:\d*|:\d+)$/i;
const ADDRESS_ATOM = /^(any|\$\w+|[0-9a-f:./-]+)$/i;

/** A `[a,!b,[c]]` specification whose brackets balance and whose atoms all match `atom`. */
function validSpec(value: string, atom: RegExp): boolean {
  let depth = 0;
  for (const ch of value) {
    if (ch === '[') depth++;
    else if (ch === ']' && --depth < 0) return false;
  }
  if (depth !== 0) return false;
  const compact = value.replace(/\s/g, '');
  const ranges = compact.match(/\d+:\d+/g) ?? [];
  if (ranges.some((r) => Number(r.split(':')[0]) > Number(r.split(':')[1]))) return false;
  if (/,[\],]|\[[\],]|\[\]|^,|,$|!$|![,\]]|[^[,!]!|\][^\],]|[^[,!]\[/.test(compact)) return false;
  return compact.split(/[[\],!]/).every((a) => a.length === 0 || atom.test(a));
}

/** Keywords whose bare form (`msg;`) Suricata refuses and the reference keeps. */
const NEEDS_VALUE = new Set(['msg', 'classtype', 'priority', 'reference', 'flowbits']);

/**
 * Why we refuse a rule the reference parsed, for what we always refuse (Suricata does too and
 * the reference does not check), or null.
 */
export function whyWeRefuse(reference: OracleRule): string | null {
  for (const port of [reference.source_port, reference.dest_port]) {
    const numbers = port?.match(/\d+/g) ?? [];
    if (numbers.some((n) => Number(n) > 65535)) {
      return `port '${port}' is above 65535: Suricata refuses it, the reference does not check`;
    }
    if (port !== null && !validSpec(port, PORT_ATOM)) {
      return `port '${port}' is not a port specification: Suricata refuses it, the reference does not check`;
    }
  }
  for (const address of [reference.source_addr, reference.dest_addr]) {
    if (address !== null && !validSpec(address, ADDRESS_ATOM)) {
      return `address '${address}' is not an address specification: Suricata refuses it, the reference does not check`;
    }
  }
  const direction = reference.direction;
  if (direction !== null && direction !== '->' && direction !== '<>' && direction !== '=>') {
    return `direction '${direction}': Suricata knows ->, <> and =>, the reference takes any word`;
  }
  for (const { name, value } of referenceOptions(reference.raw)) {
    if (name.length === 0) {
      return "an empty option (';;'): Suricata refuses it, the reference keeps an option named ''";
    }
    if (!/^[A-Za-z0-9_.-]+$/.test(name)) {
      return `'${name}' is not an option keyword: Suricata refuses it, the reference keeps it`;
    }
    if (value === null && NEEDS_VALUE.has(name)) {
      return `'${name}' without a value: Suricata refuses it, the reference keeps none`;
    }
  }
  if (typeof reference.priority === 'string' && !/^\d+$/.test(reference.priority)) {
    return `priority '${reference.priority}' is not a number: Suricata refuses it, the reference keeps the text`;
  }
  const numbers = [reference.sid, reference.gid, reference.rev];
  if (numbers.some((n) => n < 0 || n > 4294967295)) {
    return 'a sid, gid or rev out of 0–4294967295: Suricata refuses it, the reference reads any int()';
  }
  return null;
}

/** Why a field of a rule both parse may differ (a reference quirk), or null. */
export function whyFieldsDiffer(rule: Rule): string | null {
  for (const option of ruleOptions(rule)) {
    if (option.value !== null && /(^|[^\\])(\\\\)*;/.test(option.value)) {
      return `option '${option.keyword}' has a ';' inside quotes: the reference ends the option there`;
    }
  }
  return referenceQuirk(rule.text);
}
