import type { FlowbitEnabledRule } from '@palisade/contract';
import { flowbitUse, parseRule, type FlowbitUse } from '@palisade/rules';

/** A rule of a render, after matchers and overrides. */
export interface FlowbitCandidate {
  rule: { id: number; gid: number; sid: number };
  text: string;
  enabled: boolean;
  /** An override disabled it: the console's per-rule choice wins over flowbits too. */
  pinnedOff: boolean;
}

const NO_USE: FlowbitUse = { checks: [], writes: [], noalert: false };

/**
 * suricata-update's flowbit resolution (`resolve_flowbits` in its main.py): until nothing more
 * changes, every rule not enabled that sets, unsets or toggles a bit an enabled rule checks is
 * enabled and made `noalert`, since the user asked for the checking rule, not for alerts of the
 * rule it depends on. Enabling one may require more (its own `isset`), hence the fixed point.
 * Changes `enabled` and `text` of the entries it enables; returns them, by (gid, sid).
 */
export function resolveFlowbits(entries: FlowbitCandidate[]): FlowbitEnabledRule[] {
  const uses = new Map<FlowbitCandidate, { use: FlowbitUse; msg: string }>();
  for (const entry of entries) {
    // Most rules have no flowbits: a substring test spares parsing them.
    if (!entry.text.includes('flowbits')) continue;
    const parsed = parseRule(entry.text).rule;
    const use = parsed ? flowbitUse(parsed.flowbits) : NO_USE;
    if (use.checks.length > 0 || use.writes.length > 0)
      uses.set(entry, { use, msg: parsed?.msg ?? '' });
  }

  const required = new Set<string>();
  let newlyEnabled = [...uses.keys()].filter((entry) => entry.enabled);
  const waiting = [...uses.keys()].filter(
    (entry) => !entry.enabled && !entry.pinnedOff && uses.get(entry)?.use.writes.length,
  );
  const enabled: { entry: FlowbitCandidate; flowbits: string[] }[] = [];
  while (newlyEnabled.length > 0) {
    for (const entry of newlyEnabled)
      for (const bit of uses.get(entry)?.use.checks ?? []) required.add(bit);
    newlyEnabled = [];
    for (const entry of waiting) {
      if (entry.enabled) continue;
      const writes = uses.get(entry)?.use.writes ?? [];
      const needed = [...new Set(writes.filter((bit) => required.has(bit)))];
      if (needed.length === 0) continue;
      entry.enabled = true;
      entry.text = withNoalert(entry.text);
      newlyEnabled.push(entry);
      enabled.push({ entry, flowbits: needed });
    }
  }
  return enabled
    .sort((a, b) => a.entry.rule.gid - b.entry.rule.gid || a.entry.rule.sid - b.entry.rule.sid)
    .map(({ entry, flowbits }) => ({
      rule_id: entry.rule.id,
      gid: entry.rule.gid,
      sid: entry.rule.sid,
      msg: uses.get(entry)?.msg ?? '',
      flowbits,
    }));
}

/**
 * As suricata-update writes it (`Rule.format`): ` noalert;` before the sid option, unless the
 * text already says `noalert;` (`flowbits:noalert;` included), so both give the same bytes.
 */
function withNoalert(text: string): string {
  return text.includes('noalert;') ? text : text.replace(/( *sid: *[0-9]+;)/g, ' noalert;$1');
}
