import type { AuditRecord } from '@palisade/contract';
import { csvRow } from '../../lib/csv.js';
import type { AuditRow } from './audit.repository.js';

/** Row → API shape (the organization is the caller's own, so it is not repeated). */
export function presentAudit(row: AuditRow): AuditRecord {
  return {
    id: Number(row.id),
    at: new Date(row.at).toISOString(),
    actor_kind: row.actor_kind,
    actor_id: row.actor_id,
    actor_name: row.actor_name,
    action: row.action as AuditRecord['action'],
    object_type: row.object_type as AuditRecord['object_type'],
    object_id: row.object_id,
    object_name: row.object_name,
    before: row.before ?? null,
    after: row.after ?? null,
    request_id: row.request_id,
  };
}

export const CSV_COLUMNS = [
  'id',
  'at',
  'actor_kind',
  'actor_id',
  'actor_name',
  'action',
  'object_type',
  'object_id',
  'object_name',
  'before',
  'after',
  'request_id',
] as const satisfies readonly (keyof AuditRecord)[];

export const csvLine = (record: AuditRecord) => csvRow(record, CSV_COLUMNS);
