import type { Rule } from '@palisade/rules';
import type { RuleRecord } from './rules.repository.js';

/** A parsed rule as the rules table keeps it. */
export function toRecord(rule: Rule, source: string): RuleRecord {
  return {
    gid: rule.gid,
    sid: rule.sid,
    rev: rule.rev,
    action: rule.action,
    proto: rule.protocol,
    srcAddr: rule.source?.address ?? null,
    srcPort: rule.source?.port ?? null,
    direction: rule.direction,
    dstAddr: rule.destination?.address ?? null,
    dstPort: rule.destination?.port ?? null,
    msg: rule.msg ?? '',
    classtype: rule.classtype,
    priority: rule.priority,
    enabled: rule.enabled,
    text: rule.text,
    source,
  };
}

export const ruleKey = (rule: { gid: number; sid: number }) => `${rule.gid}:${rule.sid}`;
