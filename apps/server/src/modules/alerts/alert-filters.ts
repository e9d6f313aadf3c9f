import type { AlertFilters } from '@palisade/contract';
import { matchesMissing, parseSearch } from '@palisade/search-syntax';
import type { SqlParam } from '../../db/client.js';
import { searchCondition } from '../../lib/search-syntax.js';

/**
 * A text `signature` filter read in the signature catalogue (alertsRepository.signatureMatch).
 * The catalogue holds every text an alert was stored with, so an alert with a message matches
 * exactly when all the texts catalogued under its signature id (null: none) match, or some do
 * (`mixed`) and its own message matches. Of the ids whose texts all match (`found`) and those
 * none of whose texts match (`excluded`), it names only the shorter list: a search that finds
 * few signatures is looked up by id, and one that finds nearly all (a negation) keeps every
 * alert but the few it excludes.
 */
export type SignatureMatch =
  | { found: (number | null)[]; mixed: (number | null)[] }
  | { excluded: (number | null)[]; mixed: (number | null)[] };

/** Filters, with a text `signature` read in the signature catalogue. */
export type ResolvedAlertFilters = AlertFilters & { signature_match?: SignatureMatch };

/** A `signature` filter that is text, not an id: it matches the signature message. */
export const isSignatureText = (signature: string | undefined): signature is string =>
  signature !== undefined && signature !== '' && !/^\d{1,15}$/.test(signature);

/** Whether `a.sid` is one of `ids` (null among them: alerts without one); never true for others. */
function sidIn(ids: readonly (number | null)[], bind: (value: SqlParam) => string): string {
  const known = ids.filter((id) => id !== null);
  const parts = known.length > 0 ? [`a.sid = ANY(${bind(known)}::bigint[])`] : [];
  if (ids.includes(null)) parts.push('a.sid IS NULL');
  if (parts.length === 0) return 'FALSE';
  return parts.length === 1 ? (parts[0] ?? 'FALSE') : `(${parts.join(' OR ')})`;
}

/** Whether `a.sid` is none of `ids` (null among them: alerts without one); never null. */
function sidNotIn(ids: readonly (number | null)[], bind: (value: SqlParam) => string): string {
  const known = ids.filter((id) => id !== null);
  const missing = ids.includes(null);
  if (known.length === 0) return missing ? 'a.sid IS NOT NULL' : 'TRUE';
  const notKnown = `a.sid <> ALL(${bind(known)}::bigint[])`;
  return missing ? `(a.sid IS NOT NULL AND ${notKnown})` : `(a.sid IS NULL OR ${notKnown})`;
}

/**
 * A text search on the signature message, exactly as `textMatches` (the ILIKE conditions) would
 * answer it on every alert, from the catalogue's answer: alerts are found by their signature id,
 * and only those whose id has texts that match and texts that do not are tested by their own
 * message. A search that finds few signatures probes the (org, sid, time) index, and a negation
 * (which finds nearly all) reads the newest alerts in time order, dropping the few it excludes.
 */
function signatureTextCondition(
  match: SignatureMatch,
  options: {
    /** Whether an alert without a message matches (a search of exclusions only). */
    missingMatches: boolean;
    textMatches: () => string;
    bind: (value: SqlParam) => string;
  },
): string {
  const { bind } = options;
  let withMessage: string;
  if ('found' in match) {
    const parts = match.found.length > 0 ? [sidIn(match.found, bind)] : [];
    if (match.mixed.length > 0)
      parts.push(`(${sidIn(match.mixed, bind)} AND ${options.textMatches()})`);
    withMessage = parts.length === 0 ? 'FALSE' : `(${parts.join(' OR ')})`;
  } else {
    const parts = [sidNotIn(match.excluded, bind)];
    if (match.mixed.length > 0)
      parts.push(`(${sidNotIn(match.mixed, bind)} OR ${options.textMatches()})`);
    withMessage = parts.join(' AND ');
  }
  const messaged = `(a.msg IS NOT NULL AND ${withMessage})`;
  return options.missingMatches ? `(${messaged} OR a.msg IS NULL)` : messaged;
}

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
      const query = parseSearch(filters.signature);
      const match = filters.signature_match;
      conditions.push(
        match
          ? signatureTextCondition(match, {
              missingMatches: matchesMissing(query),
              textMatches: () => searchCondition('a.msg', query, bind),
              bind,
            })
          : // Words, "phrases", -negation and OR (@palisade/search-syntax), each a bound ILIKE.
            searchCondition('a.msg', query, bind),
      );
    }
  }
  if (filters.src_ip) conditions.push(`a.src_ip = ${bind(filters.src_ip)}`);
  if (filters.dest_ip) conditions.push(`a.dest_ip = ${bind(filters.dest_ip)}`);
  if (filters.src_port !== undefined) conditions.push(`a.src_port = ${bind(filters.src_port)}`);
  if (filters.dest_port !== undefined) conditions.push(`a.dest_port = ${bind(filters.dest_port)}`);
  if (filters.proto) conditions.push(`upper(a.proto) = upper(${bind(filters.proto)})`);
  // Exclusions keep the alerts that have no value at all (IS DISTINCT FROM, not <>).
  if (filters.not_device_id !== undefined)
    conditions.push(`a.device_id <> ${bind(filters.not_device_id)}`);
  if (filters.not_sid !== undefined)
    conditions.push(`a.sid IS DISTINCT FROM ${bind(filters.not_sid)}::bigint`);
  if (filters.not_src_ip) conditions.push(`a.src_ip IS DISTINCT FROM ${bind(filters.not_src_ip)}`);
  if (filters.not_dest_ip)
    conditions.push(`a.dest_ip IS DISTINCT FROM ${bind(filters.not_dest_ip)}`);
  if (filters.not_src_port !== undefined)
    conditions.push(`a.src_port IS DISTINCT FROM ${bind(filters.not_src_port)}::int`);
  if (filters.not_dest_port !== undefined)
    conditions.push(`a.dest_port IS DISTINCT FROM ${bind(filters.not_dest_port)}::int`);
  if (filters.not_proto)
    conditions.push(`upper(a.proto) IS DISTINCT FROM upper(${bind(filters.not_proto)})`);
  if (filters.acknowledged === 'true') conditions.push('a.acknowledged_at IS NOT NULL');
  if (filters.acknowledged === 'false') conditions.push('a.acknowledged_at IS NULL');
  if (filters.starred === 'true') conditions.push('a.starred_at IS NOT NULL');
  if (filters.starred === 'false') conditions.push('a.starred_at IS NULL');
  return { where: conditions.join(' AND '), params };
}

/** Keyset cursor "<microseconds since epoch>:<id>" of the last row of a page. */
export const cursorOf = (row: { time_us: string; id: number }) => `${row.time_us}:${row.id}`;

export function parseCursor(cursor: string): { micros: string; id: number } {
  const [micros = '0', id = '0'] = cursor.split(':');
  return { micros, id: Number(id) };
}
