import type { AlertFilters } from '@palisade/contract';
import type { SqlParam } from '../../db/client.js';

/** Filters, with the signature ids whose text matches a text `signature` (alertsRepository.signatureIds). */
export type ResolvedAlertFilters = AlertFilters & { signature_ids?: (number | null)[] };

/** A `signature` filter that is text, not an id: it matches the signature message. */
export const isSignatureText = (signature: string | undefined): signature is string =>
  signature !== undefined && signature !== '' && !/^\d{1,15}$/.test(signature);

/** ILIKE pattern finding `text` anywhere, its wildcards taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The WHERE clause of every alerts query, always scoped to one organization ($1, or the next
 * parameter of `params` when a query combines several clauses). Every value is a bound
 * parameter; column names are fixed here.
 */
export function alertWhere(
  orgId: number,
  filters: ResolvedAlertFilters,
  params: SqlParam[] = [],
): { where: string; params: SqlParam[] } {
  const bind = (value: SqlParam) => {
    params.push(value);
    return `$${params.length}`;
  };
  const conditions = [`a.org_id = ${bind(orgId)}`];
  if (filters.device_id !== undefined) conditions.push(`a.device_id = ${bind(filters.device_id)}`);
  if (filters.since) conditions.push(`a.time >= ${bind(filters.since)}::timestamptz`);
  if (filters.until) conditions.push(`a.time < ${bind(filters.until)}::timestamptz`);
  // Severity 1 is the most severe: "severity 2" means 1 or 2.
  if (filters.severity !== undefined) conditions.push(`a.severity <= ${bind(filters.severity)}`);
  if (filters.signature) {
    if (/^\d{1,15}$/.test(filters.signature))
      conditions.push(`a.sid = ${bind(Number(filters.signature))}`);
    else {
      conditions.push(`a.msg ILIKE ${bind(containsPattern(filters.signature))}`);
      // The ids the text is known under lead to the (org, sid, time) index.
      const ids = filters.signature_ids;
      if (ids) {
        const known = `a.sid = ANY(${bind(ids.filter((id) => id !== null))}::bigint[])`;
        conditions.push(ids.includes(null) ? `(${known} OR a.sid IS NULL)` : known);
      }
    }
  }
  if (filters.src_ip) conditions.push(`a.src_ip = ${bind(filters.src_ip)}`);
  if (filters.dest_ip) conditions.push(`a.dest_ip = ${bind(filters.dest_ip)}`);
  if (filters.src_port !== undefined) conditions.push(`a.src_port = ${bind(filters.src_port)}`);
  if (filters.dest_port !== undefined) conditions.push(`a.dest_port = ${bind(filters.dest_port)}`);
  if (filters.proto) conditions.push(`upper(a.proto) = upper(${bind(filters.proto)})`);
  if (filters.acknowledged === 'true') conditions.push('a.acknowledged_at IS NOT NULL');
  if (filters.acknowledged === 'false') conditions.push('a.acknowledged_at IS NULL');
  return { where: conditions.join(' AND '), params };
}

/** Keyset cursor "<microseconds since epoch>:<id>" of the last row of a page. */
export const cursorOf = (row: { time_us: string; id: number }) => `${row.time_us}:${row.id}`;

export function parseCursor(cursor: string): { micros: string; id: number } {
  const [micros = '0', id = '0'] = cursor.split(':');
  return { micros, id: Number(id) };
}
