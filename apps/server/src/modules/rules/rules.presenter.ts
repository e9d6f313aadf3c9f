import type { RuleDetail, RuleSummary } from '@palisade/contract';
import { parseRule } from '@palisade/rules';
import type { RuleDetailRow, RuleRow } from './rules.repository.js';

export function presentRule(row: RuleRow): RuleSummary {
  return {
    id: row.id,
    gid: row.gid,
    sid: row.sid,
    rev: row.rev,
    action: row.action,
    proto: row.proto,
    src_addr: row.src_addr,
    src_port: row.src_port,
    direction: row.direction,
    dst_addr: row.dst_addr,
    dst_port: row.dst_port,
    msg: row.msg,
    classtype: row.classtype,
    priority: row.priority,
    enabled: row.enabled,
    removed: row.removed,
    source: row.source,
    groups: row.groups,
    updated_at: row.updated_at.toISOString(),
  };
}

/** A rule with what its text says: metadata, references and flowbits are read from it here. */
export function presentRuleDetail(row: RuleDetailRow): RuleDetail {
  // Every stored text passed the parser when it was written.
  const { rule } = parseRule(row.text);
  return {
    ...presentRule(row),
    text: row.text,
    metadata: [...(rule?.metadata ?? [])],
    references: [...(rule?.references ?? [])],
    flowbits: [...(rule?.flowbits ?? [])],
  };
}
