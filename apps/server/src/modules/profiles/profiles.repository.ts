import type { Queryable } from '../../db/client.js';
import { pagedList, type ListSql, type ListSpec } from '../../db/list-query.js';

export interface ProfileRow {
  id: number;
  name: string;
  description: string;
  variables: Record<string, string>;
  device_count: number;
  updated_at: Date;
}

const SELECT_PROFILE = `SELECT f.id, f.name, f.description, f.variables, f.updated_at,
    (SELECT count(*)::int FROM devices d WHERE d.profile_id = f.id) AS device_count
  FROM device_profiles f`;

export const PROFILE_LIST_SPEC: ListSpec = {
  sortable: {
    id: 'f.id',
    name: 'lower(f.name)',
    updated_at: 'f.updated_at',
    device_count: 'device_count',
  },
  filterable: { name: { sql: 'f.name', type: 'text' } },
  searchable: ['f.name', 'f.description', 'f.variables::text'],
  defaultSort: 'f.id ASC',
};

export const profilesRepository = {
  list(db: Queryable, sql: ListSql) {
    return pagedList<ProfileRow>(
      db,
      { select: SELECT_PROFILE, countFrom: 'FROM device_profiles f', scope: 'f.org_id = $1' },
      sql,
    );
  },

  /** Whether the profile is the organization's. */
  async isOwned(db: Queryable, orgId: number, id: number): Promise<boolean> {
    const rows = await db.query('SELECT 1 FROM device_profiles WHERE org_id = $1 AND id = $2', [
      orgId,
      id,
    ]);
    return rows.length > 0;
  },

  async find(db: Queryable, orgId: number, id: number): Promise<ProfileRow | undefined> {
    const [row] = await db.query<ProfileRow>(
      `${SELECT_PROFILE} WHERE f.org_id = $1 AND f.id = $2`,
      [orgId, id],
    );
    return row;
  },

  async insert(
    db: Queryable,
    orgId: number,
    fields: { name: string; description: string; variables: Record<string, string> },
  ) {
    const [row] = await db.query<{ id: number }>(
      'INSERT INTO device_profiles (org_id, name, description, variables) VALUES ($1, $2, $3, $4::jsonb) RETURNING id',
      [orgId, fields.name, fields.description, JSON.stringify(fields.variables)],
    );
    if (!row) throw new Error('INSERT … RETURNING gave no row');
    return row.id;
  },

  async update(
    db: Queryable,
    id: number,
    fields: { name?: string; description?: string; variables?: Record<string, string> },
  ) {
    await db.query(
      `UPDATE device_profiles SET name = coalesce($2, name), description = coalesce($3, description),
              variables = coalesce($4::jsonb, variables), updated_at = now() WHERE id = $1`,
      [
        id,
        fields.name ?? null,
        fields.description ?? null,
        fields.variables ? JSON.stringify(fields.variables) : null,
      ],
    );
  },

  /** The variables of those of the profiles that are the organization's. */
  async variables(
    db: Queryable,
    orgId: number,
    ids: number[],
  ): Promise<{ id: number; variables: Record<string, string> }[]> {
    return db.query<{ id: number; variables: Record<string, string> }>(
      'SELECT id, variables FROM device_profiles WHERE org_id = $1 AND id = ANY($2::int[])',
      [orgId, ids],
    );
  },

  async delete(db: Queryable, id: number) {
    await db.query('DELETE FROM device_profiles WHERE id = $1', [id]);
  },
};
