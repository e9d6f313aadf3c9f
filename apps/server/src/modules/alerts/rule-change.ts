import type { AlertFiredUnder, AlertRuleChange } from '@palisade/contract';
import { parseRule } from '@palisade/rules';
import type { Queryable } from '../../db/client.js';
import { policyFiles, renderedContent, versionAt } from '../versions/versions.service.js';

/** A rule as a rendered rules file holds it: its text and whether it is commented out. */
interface RuleLine {
  enabled: boolean;
  text: string;
}

/**
 * Rule gid:sid in a rendered rules file, or null when the file does not hold it. Only lines
 * that name the sid are parsed: a policy's file is megabytes, and this runs as a drawer opens.
 */
export function ruleLineIn(rules: string, gid: number, sid: number): RuleLine | null {
  const named = new RegExp(`(?:^|[;(\\s])sid\\s*:\\s*${sid}\\s*;`, 'gm');
  for (const match of rules.matchAll(named)) {
    const start = rules.lastIndexOf('\n', match.index) + 1;
    const newline = rules.indexOf('\n', match.index);
    const line = rules.slice(start, newline === -1 ? undefined : newline).trim();
    const enabled = !line.startsWith('#');
    const { rule } = parseRule(enabled ? line : line.replace(/^#+\s*/, ''));
    if (rule && rule.sid === sid && rule.gid === gid) return { enabled, text: rule.text };
  }
  return null;
}

/**
 * What happened to the rule that raised an alert between the policy version the device ran
 * then and the policy's version now: null when nothing did. A policy's rendered file holds the
 * rules it runs, so a rule missing from it is not run (disabled, or out of the policy).
 */
export function ruleChangeBetween(
  then: string,
  now: string,
  gid: number,
  sid: number,
): AlertRuleChange | null {
  const before = ruleLineIn(then, gid, sid);
  const after = ruleLineIn(now, gid, sid);
  const ranBefore = before?.enabled === true;
  const runsNow = after?.enabled === true;
  if (ranBefore && !runsNow) return 'disabled';
  if (!ranBefore && runsNow) return 'enabled';
  if (!ranBefore || !before || !after) return null;
  return before.text === after.text ? null : 'modified';
}

/** The rules file of a policy version, from the version store; null when it is not kept. */
async function rulesAt(db: Queryable, orgId: number, policyId: number, version: number) {
  const stored = await versionAt(db, 'policy', orgId, policyId, version);
  const content = stored ? await renderedContent(db, stored.sha256) : null;
  return content === null ? null : policyFiles(content).rules;
}

/** An alert's `fired_under`: the policy its device ran then, and what changed for its rule. */
export async function firedUnder(
  db: Queryable,
  orgId: number,
  alert: {
    gid: number | null;
    sid: number | null;
    fired_policy_id: number | null;
    fired_policy_name: string | null;
    fired_policy_version: number | null;
    fired_policy_current_version: number | null;
  },
): Promise<AlertFiredUnder | null> {
  if (alert.fired_policy_id === null) return null;
  const answer: AlertFiredUnder = {
    policy_id: alert.fired_policy_id,
    policy_name: alert.fired_policy_name,
    version: alert.fired_policy_version,
    current_version: alert.fired_policy_current_version,
    rule_change: null,
  };
  const { version, current_version: current } = answer;
  if (version === null || current === null || version === current) return answer;
  if (alert.gid === null || alert.sid === null) return answer;
  const [then, now] = await Promise.all([
    rulesAt(db, orgId, answer.policy_id, version),
    rulesAt(db, orgId, answer.policy_id, current),
  ]);
  if (then === null || now === null) return answer;
  return { ...answer, rule_change: ruleChangeBetween(then, now, alert.gid, alert.sid) };
}
