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
  // Parsing is the cost here, so only what can matter is parsed: enabled rules that check a
  // bit (most rules have no flowbits, and most that have them only set one), and the rules that
  // could be enabled only once some bit is required.
  const required = new Set<string>();
  let newlyChecking: FlowbitUse[] = [];
  const waiting: FlowbitCandidate[] = [];
  for (const entry of entries) {
    if (!entry.text.includes('flowbits')) continue;
    if (!entry.enabled) {
      if (!entry.pinnedOff) waiting.push(entry);
      continue;
    }
    if (!entry.text.includes('isset') && !entry.text.includes('isnotset')) continue;
    newlyChecking.push(useOf(entry.text).use);
  }
  const candidates = new Map<FlowbitCandidate, { use: FlowbitUse; msg: string }>();
  const enabled: { entry: FlowbitCandidate; msg: string; flowbits: string[] }[] = [];
  while (newlyChecking.length > 0) {
    for (const use of newlyChecking) for (const bit of use.checks) required.add(bit);
    newlyChecking = [];
    if (required.size === 0) break;
    for (const entry of waiting) {
      if (entry.enabled) continue;
      let candidate = candidates.get(entry);
      if (candidate === undefined) {
        candidate = useOf(entry.text);
        candidates.set(entry, candidate);
      }
      const needed = [...new Set(candidate.use.writes.filter((bit) => required.has(bit)))];
      if (needed.length === 0) continue;
      entry.enabled = true;
      entry.text = withNoalert(entry.text);
      newlyChecking.push(candidate.use);
      enabled.push({ entry, msg: candidate.msg, flowbits: needed });
    }
  }
  return enabled
    .sort((a, b) => a.entry.rule.gid - b.entry.rule.gid || a.entry.rule.sid - b.entry.rule.sid)
    .map(({ entry, msg, flowbits }) => ({
      rule_id: entry.rule.id,
      gid: entry.rule.gid,
      sid: entry.rule.sid,
      msg,
      flowbits,
    }));
}

function useOf(text: string): { use: FlowbitUse; msg: string } {
  const rule = parseRule(text).rule;
  return rule ? { use: flowbitUse(rule.flowbits), msg: rule.msg ?? '' } : { use: NO_USE, msg: '' };
}

/**
 * As suricata-update writes it (`Rule.format`): ` noalert;` before the sid option, unless the
 * text already says `noalert;` (`flowbits:noalert;` included), so both give the same bytes.
 */
function withNoalert(text: string): string {
  return text.includes('noalert;') ? text : text.replace(/( *sid: *[0-9]+;)/g, ' noalert;$1');
}
