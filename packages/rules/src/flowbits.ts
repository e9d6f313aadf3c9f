// What a rule's flowbits options need from other rules and give them: the bits it checks
// (`isset`, `isnotset`) and the bits it writes (`set`, `setx`, `unset`, `toggle`), as
// suricata-update's FlowbitResolver sorts them.

export interface FlowbitUse {
  /** Bits the rule checks: it can only work when some rule writes them. */
  checks: string[];
  /** Bits the rule sets, unsets or toggles. */
  writes: string[];
  /** Whether the rule already alerts never (`flowbits:noalert` or `noalert`). */
  noalert: boolean;
}

const CHECKS = new Set(['isset', 'isnotset']);
const WRITES = new Set(['set', 'setx', 'unset', 'toggle']);

/**
 * Reads raw `flowbits` values (`Rule.flowbits`: `set,foo`, `isset,a|b`, `noalert`). A group of
 * bits (`a|b`, Snort's `a&b`) names each bit; a Snort group name after a second comma
 * (`set,foo,group`) is not a bit. Names are trimmed as Suricata trims them (suricata-update
 * 1.2.7 keeps the space of `isset, foo` and so never matches it to `set,foo`).
 */
export function flowbitUse(flowbits: readonly string[]): FlowbitUse {
  const use: FlowbitUse = { checks: [], writes: [], noalert: false };
  for (const value of flowbits) {
    const comma = value.indexOf(',');
    const command = (comma < 0 ? value : value.slice(0, comma)).trim().toLowerCase();
    if (command === 'noalert') {
      use.noalert = true;
      continue;
    }
    const into = CHECKS.has(command) ? use.checks : WRITES.has(command) ? use.writes : null;
    if (into === null || comma < 0) continue;
    const bits = value.slice(comma + 1).split(',', 1)[0] ?? '';
    for (const bit of bits.split(/[|&]/)) {
      const name = bit.trim();
      if (name !== '') into.push(name);
    }
  }
  return use;
}
