import type {
  FlowbitEnabledRule,
  OverrideAction,
  PolicyMatcher,
  Threshold,
} from '@palisade/contract';
import { formatRule, parseRule } from '@palisade/rules';
import { SLICE_MS, timeSlices } from '../../lib/time-slices.js';
import { expandReplacement } from '../../lib/python-replacement.js';
import { resolveFlowbits } from './policy-flowbits.js';
import {
  compileMatcher,
  modifyPattern,
  modifyReplacement,
  type MatchableRule,
} from './policy-matchers.js';

export interface RenderableRule extends MatchableRule {
  id: number;
  enabled: boolean;
  action: string;
}

export interface RenderInput {
  rules: RenderableRule[];
  overrides: Map<number, OverrideAction>;
  matchers: PolicyMatcher[];
  thresholds: Threshold[];
  /**
   * Enable the rules that write the flowbits enabled rules check (see resolveFlowbits). The
   * rules given must then include the rules of the policy's groups that mention flowbits,
   * enabled or not.
   */
  resolveFlowbits: boolean;
}

export interface RenderOutput {
  /** The rules file a sensor loads: enabled rules only, overrides applied, by (gid, sid). */
  rules: string;
  /** threshold.config. */
  thresholds: string;
  ruleCount: number;
  /** The rules enabled only for the flowbits enabled rules check, by (gid, sid). */
  flowbitRules: FlowbitEnabledRule[];
  /** Modifications that would have produced an invalid rule (and were skipped). */
  warnings: string[];
}

const MATCHER_ORDER: PolicyMatcher['kind'][] = ['enable', 'disable', 'modify', 'drop'];

/**
 * Renders a policy, in suricata-update's order: enable.conf, disable.conf, modify.conf,
 * drop.conf; then the console's per-rule overrides, which are the most specific and win; then,
 * as suricata-update does last, the rules that enabled rules depend on for flowbits. Pure and deterministic: the same input gives the same bytes. Asynchronous only to let other
 * requests run between slices of matching.
 */
export async function renderPolicy(input: RenderInput): Promise<RenderOutput> {
  const warnings: string[] = [];
  const state = input.rules.map((rule) => ({
    rule,
    text: rule.text,
    enabled: rule.enabled,
    action: rule.action,
    pinnedOff: false,
  }));

  // Each match is short (RE2, small patterns), but a policy may hold thousands of matchers over
  // tens of thousands of rules: other requests get their turn between slices.
  const slices = timeSlices(SLICE_MS);
  for (const kind of MATCHER_ORDER) {
    for (const matcher of input.matchers.filter((m) => m.kind === kind)) {
      const match = compileMatcher(matcher.matcher);
      if ('error' in match) continue; // refused when saved; an old row cannot break rendering
      for (const [index, entry] of state.entries()) {
        if (index % 8 === 0 && slices.due()) await slices.pause();
        if (!match({ ...entry.rule, text: entry.text })) continue;
        if (kind === 'enable') entry.enabled = true;
        else if (kind === 'disable') entry.enabled = false;
        else if (kind === 'drop') entry.action = 'drop';
        else modify(entry, matcher, warnings);
      }
    }
  }

  for (const entry of state) {
    const override = input.overrides.get(entry.rule.id);
    if (override === 'enable') entry.enabled = true;
    else if (override === 'disable') {
      entry.enabled = false;
      entry.pinnedOff = true;
    } else if (override === 'drop') {
      entry.enabled = true;
      entry.action = 'drop';
    }
  }
  const flowbitRules = input.resolveFlowbits ? resolveFlowbits(state) : [];

  const lines = state
    .filter((entry) => entry.enabled)
    .sort((a, b) => a.rule.gid - b.rule.gid || a.rule.sid - b.rule.sid)
    .map((entry) => formatRule({ text: entry.text, enabled: true, action: entry.action }));
  return {
    rules: lines.length > 0 ? `${lines.join('\n')}\n` : '',
    thresholds: renderThresholds(input.thresholds),
    ruleCount: lines.length,
    flowbitRules,
    warnings,
  };
}

function modify(
  entry: { rule: RenderableRule; text: string; enabled: boolean; action: string },
  matcher: PolicyMatcher,
  warnings: string[],
): void {
  if (matcher.from === undefined) return;
  const pattern = modifyPattern(matcher.from);
  if ('error' in pattern) return; // refused when saved, as above
  const replacement = modifyReplacement(pattern, matcher.to ?? '');
  if ('error' in replacement) return; // refused when saved too
  const changed = pattern
    .matcher(entry.text)
    .replaceAll((...groups: (string | undefined)[]) => expandReplacement(replacement, groups));
  if (changed === entry.text) return;
  const { rule } = parseRule(changed);
  if (!rule || rule.sid !== entry.rule.sid || rule.gid !== entry.rule.gid) {
    warnings.push(
      `modify "${matcher.matcher}" would break rule ${entry.rule.gid}:${entry.rule.sid}; skipped`,
    );
    return;
  }
  // The text may still carry its file's `#`: enabled stays what the matchers made it.
  entry.text = changed;
  entry.action = rule.action;
}

/** threshold.config lines in Suricata's syntax. */
export function renderThresholds(thresholds: Threshold[]): string {
  const lines: string[] = [];
  for (const t of thresholds) {
    if (t.comment) lines.push(`# ${t.comment.replace(/\s*\n\s*/g, ' ')}`);
    const parts = [`gen_id ${t.gid}`, `sig_id ${t.sid}`];
    switch (t.kind) {
      case 'suppress':
        if (t.track && t.ip) parts.push(`track ${t.track}`, `ip ${t.ip}`);
        break;
      case 'threshold':
      case 'event_filter':
        parts.push(
          `type ${t.type}`,
          `track ${t.track}`,
          `count ${t.count}`,
          `seconds ${t.seconds}`,
        );
        break;
      case 'rate_filter':
        parts.push(
          `track ${t.track}`,
          `count ${t.count}`,
          `seconds ${t.seconds}`,
          `new_action ${t.new_action}`,
          `timeout ${t.timeout}`,
        );
        break;
    }
    lines.push(`${t.kind} ${parts.join(', ')}`);
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
