import type { Queryable, SqlParam } from '../../db/client.js';
import { escapeLike } from '../../db/list-query.js';

export interface AuditRow {
  id: string;
  at: Date;
  org_id: number;
  actor_kind: 'user' | 'device' | 'server';
  actor_id: number | null;
  actor_name: string;
  action: string;
  object_type: string;
  object_id: string | null;
  object_name: string | null;
  before: unknown;
  after: unknown;
  request_id: string | null;
}

export type AuditInsert = Omit<AuditRow, 'id' | 'at'>;

const COLUMNS = [
  'org_id',
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
] as const;

/** What the log is filtered by; every field optional but the organization. */
export interface AuditFilter {
  orgId: number;
  /** Substring of the actor's e-mail or name (wildcards in it match themselves). */
  actor?: string;
  action?: string;
  objectType?: string;
  objectId?: string;
  from?: string;
  to?: string;
}

/** WHERE of a filter, its parameters numbered from $1. */
function whereOf(filter: AuditFilter): { sql: string; params: SqlParam[] } {
  const params: SqlParam[] = [filter.orgId];
  const clauses = ['org_id = $1'];
  const add = (sql: (n: string) => string, value: SqlParam) => {
    params.push(value);
    clauses.push(sql(`$${params.length}`));
  };
  if (filter.actor) add((n) => `actor_name ILIKE ${n}`, `%${escapeLike(filter.actor)}%`);
  if (filter.action) add((n) => `action = ${n}`, filter.action);
  if (filter.objectType) add((n) => `object_type = ${n}`, filter.objectType);
  if (filter.objectId) add((n) => `object_id = ${n}`, filter.objectId);
  if (filter.from) add((n) => `at >= ${n}::timestamptz`, filter.from);
  if (filter.to) add((n) => `at < ${n}::timestamptz`, filter.to);
  return { sql: clauses.join(' AND '), params };
}

const SELECTED = `id::text AS id, at, org_id, actor_kind, actor_id, actor_name, action, object_type,
  object_id, object_name, before, after, request_id`;

/** The audit_log table: only this module writes it. */
export const auditRepository = {
  /** Many records in one statement (a bulk change writes one record per object it touched). */
  async insert(db: Queryable, rows: AuditInsert[]): Promise<void> {
    if (rows.length === 0) return;
    const column = <K extends (typeof COLUMNS)[number]>(key: K) => rows.map((row) => row[key]);
    const json = (values: unknown[]) =>
      values.map((value) => (value === undefined || value === null ? null : JSON.stringify(value)));
    await db.query(
      `INSERT INTO audit_log (${COLUMNS.join(', ')})
       SELECT * FROM unnest($1::int[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[],
                            $7::text[], $8::text[], $9::jsonb[], $10::jsonb[], $11::text[])`,
      [
        column('org_id'),
        column('actor_kind'),
        column('actor_id'),
        column('actor_name'),
        column('action'),
        column('object_type'),
        column('object_id'),
        column('object_name'),
        json(column('before')),
        json(column('after')),
        column('request_id'),
      ],
    );
  },

  /**
   * Newest first, `limit` rows with ids below `beforeId` (keyset): one statement whatever the
   * page, served by (org_id, id DESC) or the object index.
   */
  async page(
    db: Queryable,
    filter: AuditFilter,
    page: { limit: number; beforeId?: number | undefined },
  ): Promise<AuditRow[]> {
    const { sql, params } = whereOf(filter);
    const keyset = page.beforeId === undefined ? '' : ` AND id < $${params.length + 1}`;
    if (page.beforeId !== undefined) params.push(page.beforeId);
    return db.query<AuditRow>(
      `SELECT ${SELECTED} FROM audit_log WHERE ${sql}${keyset}
        ORDER BY audit_log.id DESC LIMIT ${Math.trunc(page.limit)}`,
      params,
    );
  },

  /** Deletes up to `batch` records older than `before`; answers how many went. */
  async deleteOlderThan(db: Queryable, before: Date, batch: number): Promise<number> {
    const rows = await db.query(
      `DELETE FROM audit_log WHERE id IN (
         SELECT id FROM audit_log WHERE at < $1 ORDER BY at LIMIT ${Math.trunc(batch)})
       RETURNING 1`,
      [before],
    );
    return rows.length;
  },
};
