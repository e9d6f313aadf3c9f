import type { Queryable } from '../../db/client.js';
import { pagedList, type ListSql, type ListSpec } from '../../db/list-query.js';

export interface GroupRow {
  id: number;
  name: string;
  description: string;
  kind: 'file' | 'custom';
  source_id: number | null;
  rule_count: number;
  enabled_count: number;
  updated_at: Date;
}

const SELECT_GROUP = `SELECT g.id, g.name, g.description, g.kind, g.source_id, g.updated_at,
    counts.rule_count, counts.enabled_count
  FROM rule_groups g
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS rule_count,
      (count(*) FILTER (WHERE r.enabled AND NOT r.removed))::int AS enabled_count
    FROM group_rules gr JOIN rules r ON r.id = gr.rule_id
    WHERE gr.group_id = g.id
  ) counts`;

export const GROUP_LIST_SPEC: ListSpec = {
  sortable: {
    id: 'g.id',
    name: 'lower(g.name)',
    kind: 'g.kind',
    rule_count: 'rule_count',
    enabled_count: 'enabled_count',
    updated_at: 'g.updated_at',
  },
  filterable: { kind: { sql: 'g.kind', type: 'text' }, name: { sql: 'g.name', type: 'text' } },
  searchable: ['g.name', 'g.description'],
  defaultSort: 'g.id ASC',
};

export const groupsRepository = {
  list(db: Queryable, sql: ListSql) {
    return pagedList<GroupRow>(
      db,
      { select: SELECT_GROUP, countFrom: 'FROM rule_groups g', scope: 'g.org_id = $1' },
      sql,
    );
  },

  async find(db: Queryable, orgId: number, id: number): Promise<GroupRow | undefined> {
    const [row] = await db.query<GroupRow>(`${SELECT_GROUP} WHERE g.org_id = $1 AND g.id = $2`, [
      orgId,
      id,
    ]);
    return row;
  },

  async insert(db: Queryable, orgId: number, name: string, description: string): Promise<number> {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO rule_groups (org_id, name, description, kind) VALUES ($1, $2, $3, 'custom') RETURNING id`,
      [orgId, name, description],
    );
    if (!row) throw new Error('INSERT … RETURNING gave no row');
    return row.id;
  },

  async update(
    db: Queryable,
    id: number,
    patch: { name?: string; description?: string },
  ): Promise<void> {
    await db.query(
      `UPDATE rule_groups SET name = coalesce($2, name), description = coalesce($3, description), updated_at = now()
        WHERE id = $1`,
      [id, patch.name ?? null, patch.description ?? null],
    );
  },

  async delete(db: Queryable, id: number): Promise<void> {
    await db.query('DELETE FROM rule_groups WHERE id = $1', [id]);
  },

  async setMembers(db: Queryable, groupId: number, ruleIds: number[]): Promise<void> {
    await db.query('DELETE FROM group_rules WHERE group_id = $1', [groupId]);
    await this.addMembers(db, groupId, ruleIds);
  },

  async addMembers(db: Queryable, groupId: number, ruleIds: number[]): Promise<void> {
    if (ruleIds.length === 0) return;
    await db.query(
      'INSERT INTO group_rules (group_id, rule_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
      [groupId, ruleIds],
    );
  },

  async removeMembers(db: Queryable, groupId: number, ruleIds: number[]): Promise<void> {
    if (ruleIds.length === 0) return;
    await db.query('DELETE FROM group_rules WHERE group_id = $1 AND rule_id = ANY($2::int[])', [
      groupId,
      ruleIds,
    ]);
  },

  /** Which of ids are groups of the organization, by id. */
  async findOwnedIds(db: Queryable, orgId: number, ids: number[]): Promise<{ id: number }[]> {
    return db.query<{ id: number }>(
      'SELECT id FROM rule_groups WHERE org_id = $1 AND id = ANY($2::int[]) ORDER BY id',
      [orgId, ids],
    );
  },

  /** How many of ids are groups of the organization. */
  async countOwned(db: Queryable, orgId: number, ids: number[]): Promise<number> {
    const [row] = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM rule_groups WHERE org_id = $1 AND id = ANY($2::int[])',
      [orgId, ids],
    );
    return row?.n ?? 0;
  },

  /** The organization's groups of these names (any case), by lower-case name. */
  async idsByName(db: Queryable, orgId: number, names: string[]): Promise<Map<string, number>> {
    const rows = await db.query<{ id: number; name: string }>(
      'SELECT id, name FROM rule_groups WHERE org_id = $1 AND lower(name) = ANY($2::text[])',
      [orgId, names.map((n) => n.toLowerCase())],
    );
    return new Map(rows.map((r) => [r.name.toLowerCase(), r.id]));
  },

  async addRuleToGroups(db: Queryable, groupIds: number[], ruleId: number): Promise<void> {
    await db.query(
      'INSERT INTO group_rules (group_id, rule_id) SELECT unnest($1::int[]), $2 ON CONFLICT DO NOTHING',
      [groupIds, ruleId],
    );
  },

  async findCustomId(db: Queryable, orgId: number): Promise<number | undefined> {
    const [row] = await db.query<{ id: number }>(
      `SELECT id FROM rule_groups WHERE org_id = $1 AND name = 'custom'`,
      [orgId],
    );
    return row?.id;
  },

  /** The organization's group of rules written in the console, created on first use. */
  async upsertCustom(db: Queryable, orgId: number, name: string): Promise<number> {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO rule_groups (org_id, name, kind, description) VALUES ($1, $2, 'custom', 'Rules written in the console')
     ON CONFLICT (org_id, lower(name)) DO UPDATE SET updated_at = now() RETURNING id`,
      [orgId, name],
    );
    if (!row) throw new Error('custom group upsert returned no row');
    return row.id;
  },
};
