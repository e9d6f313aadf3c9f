import type { AlertViewFilters } from '@palisade/contract';
import type { Queryable } from '../../db/client.js';
import { pagedList, type ListSql, type ListSpec } from '../../db/list-query.js';

export interface AlertViewRow {
  id: number;
  user_id: number;
  name: string;
  filters: AlertViewFilters;
  shared: boolean;
  owner: string;
  updated_at: Date;
}

const FROM = 'FROM alert_views v JOIN users u ON u.id = v.user_id';
const SELECT_VIEW = `SELECT v.id, v.user_id, v.name, v.filters, v.shared, u.email AS owner, v.updated_at ${FROM}`;
/** What the caller sees: their own views and the organization's shared ones ($1 org, $2 user). */
const VISIBLE = 'v.org_id = $1 AND (v.user_id = $2 OR v.shared)';

/** Sorting and filtering of `GET /alertviews/`: these fields only (`own:true`, `shared:false`). */
export const ALERT_VIEW_LIST_SPEC: ListSpec = {
  sortable: {
    id: 'v.id',
    name: 'lower(v.name)',
    owner: 'lower(u.email)',
    shared: 'v.shared',
    updated_at: 'v.updated_at',
  },
  filterable: {
    name: { type: 'text', sql: 'v.name' },
    shared: { type: 'bool', sql: 'v.shared' },
    own: { type: 'bool', sql: '(v.user_id = $2)' },
  },
  searchable: ['v.name'],
  defaultSort: 'lower(v.name) ASC, v.id ASC',
};

/** The saved views (`alert_views`, owned by this module). */
export const alertViewsRepository = {
  list(db: Queryable, sql: ListSql) {
    return pagedList<AlertViewRow>(
      db,
      { select: SELECT_VIEW, countFrom: FROM, scope: VISIBLE },
      sql,
    );
  },

  /** The view if the user may see it: their own, or shared in their organization. */
  async findVisible(db: Queryable, orgId: number, userId: number, id: number) {
    const [row] = await db.query<AlertViewRow>(`${SELECT_VIEW} WHERE ${VISIBLE} AND v.id = $3`, [
      orgId,
      userId,
      id,
    ]);
    return row;
  },

  async countOwn(db: Queryable, userId: number) {
    const [row] = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM alert_views WHERE user_id = $1',
      [userId],
    );
    return row?.n ?? 0;
  },

  async insert(
    db: Queryable,
    owner: { orgId: number; userId: number },
    fields: { name: string; filters: AlertViewFilters; shared: boolean },
  ) {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO alert_views (org_id, user_id, name, filters, shared)
       VALUES ($1, $2, $3, $4::jsonb, $5) RETURNING id`,
      [owner.orgId, owner.userId, fields.name, JSON.stringify(fields.filters), fields.shared],
    );
    if (!row) throw new Error('INSERT … RETURNING gave no row');
    return row.id;
  },

  async update(
    db: Queryable,
    id: number,
    fields: {
      name?: string | undefined;
      filters?: AlertViewFilters | undefined;
      shared?: boolean | undefined;
    },
  ) {
    await db.query(
      `UPDATE alert_views SET name = coalesce($2, name), filters = coalesce($3::jsonb, filters),
              shared = coalesce($4, shared), updated_at = now() WHERE id = $1`,
      [
        id,
        fields.name ?? null,
        fields.filters ? JSON.stringify(fields.filters) : null,
        fields.shared ?? null,
      ],
    );
  },

  async delete(db: Queryable, id: number) {
    await db.query('DELETE FROM alert_views WHERE id = $1', [id]);
  },
};
