import type { RuleChange, RuleSource, RuleSourceUpdateSummary } from '@palisade/contract';
import type { ChangeRow, UpdateRow } from './rule-source-updates.repository.js';
import type { SourceRow } from './rule-sources.repository.js';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export const presentUpdate = (row: UpdateRow): RuleSourceUpdateSummary => ({
  id: row.id,
  source_id: row.source_id,
  status: row.status,
  phase: row.phase,
  trigger: row.trigger,
  requested_by: row.requested_by,
  created_at: row.created_at.toISOString(),
  started_at: iso(row.started_at),
  finished_at: iso(row.finished_at),
  added: row.added,
  removed: row.removed,
  changed: row.changed,
  enabled: row.enabled,
  disabled: row.disabled,
  policies_bumped: row.policies_bumped,
  bytes: row.bytes,
  error: row.error,
  warning_count: row.warning_count,
});

/** A source as the console sees it: never its secret code or header values. */
export const presentSource = (row: SourceRow, lastUpdate: UpdateRow | undefined): RuleSource => ({
  id: row.id,
  name: row.name,
  url: row.url,
  checksum_url: row.checksum_url,
  catalogue_id: row.catalogue_id,
  has_secret: row.secret_ciphertext !== null,
  header_names: row.header_names,
  schedule: row.schedule,
  enabled: row.enabled,
  rule_count: row.rule_count,
  enabled_count: row.enabled_count,
  group_count: row.group_count,
  last_update: lastUpdate ? presentUpdate(lastUpdate) : null,
  last_checked_at: iso(row.last_checked_at),
  next_update_at: iso(row.next_update_at),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export const presentChange = (row: ChangeRow): RuleChange => ({
  id: row.id,
  update_id: row.update_id,
  source_id: row.source_id,
  kind: row.kind,
  gid: row.gid,
  sid: row.sid,
  rule_id: row.rule_id,
  msg: row.msg,
  file: row.file,
  old_rev: row.old_rev,
  new_rev: row.new_rev,
  old_text: row.old_text,
  new_text: row.new_text,
  at: row.at.toISOString(),
});
