// What changed between two rendered outputs: pure functions over texts and definitions, shared
// by the version history's compare and by the preview of what each device will receive.

import type { ChainPolicies, DeviceNetwork, FirewallRule } from '@palisade/contract';
import { createTwoFilesPatch, diffArrays, diffLines, diffWordsWithSpace } from 'diff';

/** A word-level diff of one changed item: its parts in order, each kept, added or removed. */
export interface DiffPart {
  value: string;
  added?: true;
  removed?: true;
}

/** A unified diff of two texts, with the lines it adds and removes. */
export interface TextDiff {
  /** `--- a` / `+++ b` hunks with 3 lines of context; empty when the texts are equal. */
  unified: string;
  added: number;
  removed: number;
}

/** Each list holds at most `limit` entries (see `truncated`); the counts are always whole. */
export interface RulesDiff {
  added: { key: string; text: string }[];
  removed: { key: string; text: string }[];
  changed: { key: string; old: string; new: string; diff: DiffPart[] }[];
  counts: { added: number; removed: number; changed: number; unchanged: number };
  truncated: boolean;
}

export interface DiffOptions {
  /** Entries kept per list of a rules diff (a policy of 30,000 rules can change them all). */
  limit?: number;
  /** Names of the two sides in a unified diff. */
  names?: [string, string];
}

const DEFAULT_LIMIT = 1000;

/** Unified diff of two texts (line-based). */
export function textDiff(before: string, after: string, options: DiffOptions = {}): TextDiff {
  if (before === after) return { unified: '', added: 0, removed: 0 };
  const [a, b] = options.names ?? ['before', 'after'];
  let added = 0;
  let removed = 0;
  for (const part of diffLines(before, after)) {
    if (part.added) added += part.count;
    else if (part.removed) removed += part.count;
  }
  const unified = createTwoFilesPatch(a, b, before, after, '', '', { context: 3 });
  // The header's "Index"/"===" lines say nothing a reader needs.
  return { unified: unified.replace(/^=+\n/m, ''), added, removed };
}

const wordDiff = (before: string, after: string): DiffPart[] =>
  diffWordsWithSpace(before, after).map((part) => ({
    value: part.value,
    ...(part.added ? { added: true as const } : {}),
    ...(part.removed ? { removed: true as const } : {}),
  }));

const SID = /(?:^|[\s;(])sid\s*:\s*(\d+)\s*;/;
const GID = /(?:^|[\s;(])gid\s*:\s*(\d+)\s*;/;

/** `gid:sid` of a rule line (gid 1 when the rule names none), or null for other lines. */
export function ruleKey(line: string): string | null {
  const sid = SID.exec(line)?.[1];
  if (sid === undefined) return null;
  return `${GID.exec(line)?.[1] ?? '1'}:${sid}`;
}

/** A rules file's rules by `gid:sid` (a rule twice: the later line, as Suricata loads it). */
function rulesByKey(text: string): Map<string, string> {
  const rules = new Map<string, string>();
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    const key = ruleKey(trimmed);
    if (key !== null) rules.set(key, trimmed);
  }
  return rules;
}

const byKey = (a: { key: string }, b: { key: string }) => {
  const [ga, sa] = a.key.split(':').map(Number);
  const [gb, sb] = b.key.split(':').map(Number);
  return (ga ?? 0) - (gb ?? 0) || (sa ?? 0) - (sb ?? 0);
};

/**
 * Two rules files (Suricata rule text, one rule a line) compared rule by rule, keyed by
 * `gid:sid`: rules only in `after` are added, only in `before` removed, in both with another
 * text changed (with a word diff). Lines without a sid (comments) are not rules.
 */
export function rulesDiff(before: string, after: string, options: DiffOptions = {}): RulesDiff {
  const limit = options.limit ?? DEFAULT_LIMIT;
  const old = rulesByKey(before);
  const now = rulesByKey(after);
  const added: RulesDiff['added'] = [];
  const removed: RulesDiff['removed'] = [];
  const changed: { key: string; old: string; new: string }[] = [];
  let unchanged = 0;
  for (const [key, text] of now) {
    const was = old.get(key);
    if (was === undefined) added.push({ key, text });
    else if (was !== text) changed.push({ key, old: was, new: text });
    else unchanged += 1;
  }
  for (const [key, text] of old) if (!now.has(key)) removed.push({ key, text });
  const counts = {
    added: added.length,
    removed: removed.length,
    changed: changed.length,
    unchanged,
  };
  return {
    added: added.sort(byKey).slice(0, limit),
    removed: removed.sort(byKey).slice(0, limit),
    // Word diffs only for the entries returned: they cost more than the comparison.
    changed: changed
      .sort(byKey)
      .slice(0, limit)
      .map((c) => ({ ...c, diff: wordDiff(c.old, c.new) })),
    counts,
    truncated: added.length > limit || removed.length > limit || changed.length > limit,
  };
}

/** One line a reader can compare: what a firewall rule matches and does. */
export function describeFirewallRule(rule: FirewallRule): string {
  const parts: string[] = [rule.chain, rule.action];
  if (rule.protocol !== 'any') parts.push(rule.protocol);
  if (rule.in_interface) parts.push(`iif ${rule.in_interface}`);
  if (rule.out_interface) parts.push(`oif ${rule.out_interface}`);
  if (rule.source) parts.push(`from ${rule.source}`);
  if (rule.source_ports) parts.push(`sport ${rule.source_ports}`);
  if (rule.destination) parts.push(`to ${rule.destination}`);
  if (rule.destination_ports) parts.push(`dport ${rule.destination_ports}`);
  if (rule.states.length > 0) parts.push(`state ${rule.states.join(',')}`);
  if (rule.log) parts.push('log');
  if (!rule.counter) parts.push('no-counter');
  if (!rule.enabled) parts.push('(disabled)');
  if (rule.comment) parts.push(`# ${rule.comment}`);
  return parts.join(' ');
}

/** A firewall rule's change in an ordered list: its positions (1-based) before and after. */
export interface FirewallRulesDiff {
  added: { position: number; text: string }[];
  removed: { position: number; text: string }[];
  changed: { old_position: number; position: number; old: string; new: string; diff: DiffPart[] }[];
  /** The chain policies that differ. */
  policies: { chain: keyof ChainPolicies; old: string; new: string }[];
  counts: { added: number; removed: number; changed: number; unchanged: number };
}

/**
 * Two rulesets compared in order (a firewall's rules have no key: their order decides): the
 * longest common run of equal rules is kept, and where rules were removed and others added at
 * the same place, they pair up as changed. A moved rule reads as removed and added.
 */
export function firewallRulesDiff(
  before: { rules: FirewallRule[]; policies: ChainPolicies },
  after: { rules: FirewallRule[]; policies: ChainPolicies },
): FirewallRulesDiff {
  const oldLines = before.rules.map(describeFirewallRule);
  const newLines = after.rules.map(describeFirewallRule);
  const result: FirewallRulesDiff = {
    added: [],
    removed: [],
    changed: [],
    policies: [],
    counts: { added: 0, removed: 0, changed: 0, unchanged: 0 },
  };
  let i = 0; // position in before
  let j = 0; // position in after
  const chunks = diffArrays(oldLines, newLines);
  for (let k = 0; k < chunks.length; k += 1) {
    const chunk = chunks[k];
    if (!chunk) continue;
    if (!chunk.added && !chunk.removed) {
      i += chunk.count;
      j += chunk.count;
      result.counts.unchanged += chunk.count;
      continue;
    }
    const next = chunks[k + 1];
    if (chunk.removed && next?.added) {
      const paired = Math.min(chunk.count, next.count);
      for (let n = 0; n < paired; n += 1) {
        const was = chunk.value[n] ?? '';
        const now = next.value[n] ?? '';
        result.changed.push({
          old_position: i + n + 1,
          position: j + n + 1,
          old: was,
          new: now,
          diff: wordDiff(was, now),
        });
      }
      for (let n = paired; n < chunk.count; n += 1)
        result.removed.push({ position: i + n + 1, text: chunk.value[n] ?? '' });
      for (let n = paired; n < next.count; n += 1)
        result.added.push({ position: j + n + 1, text: next.value[n] ?? '' });
      i += chunk.count;
      j += next.count;
      k += 1;
    } else if (chunk.removed) {
      chunk.value.forEach((text, n) => result.removed.push({ position: i + n + 1, text }));
      i += chunk.count;
    } else {
      chunk.value.forEach((text, n) => result.added.push({ position: j + n + 1, text }));
      j += chunk.count;
    }
  }
  for (const chain of ['input', 'forward', 'output'] as const) {
    if (before.policies[chain] !== after.policies[chain])
      result.policies.push({ chain, old: before.policies[chain], new: after.policies[chain] });
  }
  result.counts.added = result.added.length;
  result.counts.removed = result.removed.length;
  result.counts.changed = result.changed.length;
  return result;
}

/** Variables added, removed and changed between two profiles' variable sets. */
export interface VariablesDiff {
  added: { name: string; value: string }[];
  removed: { name: string; value: string }[];
  changed: { name: string; old: string; new: string }[];
}

export function variablesDiff(
  before: Record<string, string>,
  after: Record<string, string>,
): VariablesDiff {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const result: VariablesDiff = { added: [], removed: [], changed: [] };
  for (const name of names) {
    const was = Object.hasOwn(before, name) ? before[name] : undefined;
    const now = Object.hasOwn(after, name) ? after[name] : undefined;
    if (was === undefined && now !== undefined) result.added.push({ name, value: now });
    else if (was !== undefined && now === undefined) result.removed.push({ name, value: was });
    else if (was !== undefined && now !== undefined && was !== now)
      result.changed.push({ name, old: was, new: now });
  }
  return result;
}

/** A device network's NAT as lines a reader compares (one entry a line). */
export function describeNat(network: DeviceNetwork): string {
  const lines = [`l3_mode ${network.l3_mode ? 'on' : 'off'}`];
  for (const entry of network.source_nat) lines.push(`source_nat ${JSON.stringify(entry)}`);
  for (const entry of network.port_forwards) lines.push(`port_forward ${JSON.stringify(entry)}`);
  return `${lines.join('\n')}\n`;
}
