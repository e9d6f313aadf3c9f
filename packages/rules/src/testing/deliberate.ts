// The deliberate differences between our parser and the reference (suricata-update 1.2.7's
// `suricata.update.rule`). Each is decided from the rule text or the reference's own record,
// never from a list of expected answers, and each says why. Test code only.

import { RULE_ACTIONS } from '../header.js';
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

/** Why the reference cannot parse a rule we parse, or null when it should have. */
export function whyReferenceRefuses(rule: Rule): string | null {
  if (rule.action.includes(',')) {
    return `Suricata 8 action list '${rule.action}': the reference knows one action per rule`;
  }
  if (rule.action.includes(':')) {
    return `Suricata 8 scoped action '${rule.action}': the reference knows no action scopes`;
  }
  if (!REFERENCE_ACTIONS.has(rule.action) && RULE_ACTIONS.has(rule.action)) {
    return `action '${rule.action}' (Suricata/Snort 3) is not in the reference's action list`;
  }
  if (rule.protocol !== null && rule.source === null) {
    return `Snort 3 rule without addresses ('${rule.action} ${rule.protocol} (…)'): the reference needs a full header`;
  }
  return headerQuirk(rule);
}

/**
 * The reference splits the header on single spaces only and ends a `[…]` list at its first `]`,
 * so tabs, blanks inside lists and nested lists throw its header apart.
 */
function headerQuirk(rule: Rule): string | null {
  for (const endpoint of [rule.source, rule.destination]) {
    if (endpoint === null) continue;
    for (const value of [endpoint.address, endpoint.port]) {
      if (/\s/.test(value) || value.indexOf('[') !== value.lastIndexOf('[')) {
        return `header value '${value}' (blanks or a nested list): the reference splits it at the first blank or ']'`;
      }
    }
  }
  const open = rule.text.indexOf('(');
  if (open >= 0 && rule.text.slice(0, open).includes('\t')) {
    return 'the header is separated by tabs: the reference splits it on spaces only';
  }
  return null;
}

/**
 * The reference's own option split (its `find_opt_end`): every `;` not preceded by a backslash
 * ends an option, quotes or not, and `\\;` counts as escaped.
 */
export function referenceOptionNames(raw: string): string[] {
  const open = raw.indexOf('(');
  const close = raw.lastIndexOf(')');
  if (open < 0 || close < open) return [];
  let rest = raw.slice(open + 1, close).trim();
  const names: string[] = [];
  while (rest.length > 0) {
    let end = -1;
    for (let i = 0; i < rest.length; i++) {
      if (rest[i] === ';' && rest[i - 1] !== '\\') {
        end = i;
        break;
      }
    }
    if (end < 0) break;
    const option = rest.slice(0, end).trim();
    const colon = option.indexOf(':');
    names.push((colon < 0 ? option : option.slice(0, colon)).trim());
    rest = rest.slice(end + 1).trim();
  }
  return names;
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
  const atoms = value.replace(/\s/g, '').split(/[[\],!]/);
  const ranges = value.match(/\d+:\d+/g) ?? [];
  if (ranges.some((r) => Number(r.split(':')[0]) > Number(r.split(':')[1]))) return false;
  if (/,[\],]|\[[\],]|\[\]|^,|,$/.test(value.replace(/\s/g, ''))) return false;
  return atoms.every((a) => a.length === 0 || atom.test(a));
}

/** Why we refuse a rule the reference parsed, or null when we should not have. */
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
  for (const name of referenceOptionNames(reference.raw)) {
    if (name.length === 0) {
      return "an empty option (';;'): Suricata refuses it, the reference keeps an option named ''";
    }
    if (!/^[A-Za-z0-9_.-]+$/.test(name)) {
      return `'${name}' is not an option keyword: Suricata refuses it, the reference keeps it`;
    }
  }
  if (typeof reference.priority === 'string' && !/^\d+$/.test(reference.priority)) {
    return `priority '${reference.priority}' is not a number: Suricata refuses it, the reference keeps the text`;
  }
  const headerTokens = reference.header.split(' ').filter((token) => token.length > 0);
  if (headerTokens.length > 7 && !reference.header.includes('[')) {
    return 'the header has extra words: Suricata refuses it, the reference ignores them';
  }
  return null;
}

/**
 * Why a field of a rule both parse may differ, or null when it must not. The reference splits
 * options at every unescaped `;` even inside quotes, reads `\\;` as an escaped `;`, splits the
 * header on single spaces only and ends a `[…]` list at its first `]`.
 */
export function whyFieldsDiffer(rule: Rule): string | null {
  for (const option of rule.options) {
    if (option.value !== null && /(^|[^\\])(\\\\)*;/.test(option.value)) {
      return `option '${option.keyword}' has a ';' inside quotes: the reference ends the option there`;
    }
  }
  if (/\\\\;/.test(rule.text)) return "the reference reads '\\\\;' as an escaped ';'";
  return headerQuirk(rule);
}
