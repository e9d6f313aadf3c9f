import type { OverrideAction, PolicyMatcher, Threshold } from '@palisade/contract';
import { parseRule } from '@palisade/rules';
import type { Queryable } from '../../db/client.js';
import { pagedList, type ListSql, type ListSpec } from '../../db/list-query.js';
import type { RenderableRule } from './policy-render.js';

export interface PolicyRow {
  id: number;
  name: string;
  description: string;
  version: number;
  rendered_sha256: string;
  rule_count: number;
  restricted: boolean;
  updated_at: Date;
}

export interface PolicyParts {
  groups: { id: number; name: string }[];
  overrides: { rule_id: number; action: OverrideAction }[];
  matchers: PolicyMatcher[];
  thresholds: Threshold[];
  editors: number[];
  /** The editors' e-mail addresses, in the order of `editors`. */
  editorEmails: string[];
  removedCount: number;
}

const SELECT_POLICY = `SELECT p.id, p.name, p.description, p.version, p.rendered_sha256, p.rule_count,
  p.restricted, p.updated_at FROM policies p`;

export const POLICY_LIST_SPEC: ListSpec = {
  sortable: {
    id: 'p.id',
    name: 'lower(p.name)',
    rule_count: 'p.rule_count',
    version: 'p.version',
    updated_at: 'p.updated_at',
  },
  filterable: {
    name: { sql: 'p.name', type: 'text' },
    restricted: { sql: 'p.restricted', type: 'bool' },
  },
  searchable: ['p.name', 'p.description'],
  defaultSort: 'p.id ASC',
};

const NO_METADATA: RenderableRule['metadata'] = [];

export const policiesRepository = {
  list(db: Queryable, sql: ListSql) {
    return pagedList<PolicyRow>(
      db,
      { select: SELECT_POLICY, countFrom: 'FROM policies p', scope: 'p.org_id = $1' },
      sql,
    );
  },

  async find(db: Queryable, orgId: number, id: number): Promise<PolicyRow | undefined> {
    const [row] = await db.query<PolicyRow>(`${SELECT_POLICY} WHERE p.org_id = $1 AND p.id = $2`, [
      orgId,
      id,
    ]);
    return row;
  },

  async idsOfOrg(db: Queryable, orgId: number): Promise<number[]> {
    return (
      await db.query<{ id: number }>('SELECT id FROM policies WHERE org_id = $1', [orgId])
    ).map((r) => r.id);
  },

  async parts(db: Queryable, id: number): Promise<PolicyParts> {
    const [groups, overrides, matchers, thresholds, editors, removed] = await Promise.all([
      db.query<{ id: number; name: string }>(
        `SELECT g.id, g.name FROM policy_groups pg JOIN rule_groups g ON g.id = pg.group_id
          WHERE pg.policy_id = $1 ORDER BY lower(g.name)`,
        [id],
      ),
      db.query<{ rule_id: number; action: OverrideAction }>(
        'SELECT rule_id, action FROM policy_overrides WHERE policy_id = $1 ORDER BY rule_id',
        [id],
      ),
      db.query<{
        kind: PolicyMatcher['kind'];
        matcher: string;
        from_text: string | null;
        to_text: string | null;
      }>(
        'SELECT kind, matcher, from_text, to_text FROM policy_matchers WHERE policy_id = $1 ORDER BY position',
        [id],
      ),
      db.query<{ spec: Threshold }>(
        'SELECT spec FROM policy_thresholds WHERE policy_id = $1 ORDER BY position',
        [id],
      ),
      db.query<{ user_id: number; email: string }>(
        `SELECT e.user_id, u.email FROM policy_editors e JOIN users u ON u.id = e.user_id
          WHERE e.policy_id = $1 ORDER BY e.user_id`,
        [id],
      ),
      db.query<{ n: number }>(
        `SELECT count(DISTINCT r.id)::int AS n FROM policy_groups pg JOIN group_rules gr ON gr.group_id = pg.group_id
           JOIN rules r ON r.id = gr.rule_id WHERE pg.policy_id = $1 AND r.removed`,
        [id],
      ),
    ]);
    return {
      groups,
      overrides,
      matchers: matchers.map((m) => ({
        kind: m.kind,
        matcher: m.matcher,
        ...(m.from_text === null ? {} : { from: m.from_text }),
        ...(m.to_text === null ? {} : { to: m.to_text }),
      })),
      thresholds: thresholds.map((t) => t.spec),
      editors: editors.map((e) => e.user_id),
      editorEmails: editors.map((e) => e.email),
      removedCount: removed[0]?.n ?? 0,
    };
  },

  /**
   * The policy's rules as rendering needs them. A large policy holds tens of thousands of
   * rules, most of them disabled in their files: `enabledOr` (when given) limits the read to
   * rules that are enabled or have one of those ids, and metadata (read from each rule's text)
   * only when asked. They come as one JSON value, not a row per rule: PGlite decodes rows one
   * value at a time in JavaScript, most of a 30,000-rule render.
   */
  async rulesOf(
    db: Queryable,
    id: number,
    read: { metadata: boolean; enabledOr?: number[] },
  ): Promise<RenderableRule[]> {
    const [row] = await db.query<{
      rules: [number, number, number, string, boolean, string, string][] | null;
    }>(
      // A semi-join, not DISTINCT: de-duplicating would sort every rule's whole text.
      `SELECT json_agg(json_build_array(r.id, r.gid, r.sid, r.text, r.enabled, r.action, r.source)) AS rules
         FROM rules r
        WHERE r.id IN (SELECT gr.rule_id FROM policy_groups pg JOIN group_rules gr ON gr.group_id = pg.group_id
                        WHERE pg.policy_id = $1)
          ${read.enabledOr ? 'AND (r.enabled OR r.id = ANY($2::int[]))' : ''}`,
      read.enabledOr ? [id, read.enabledOr] : [id],
    );
    return (row?.rules ?? []).map(([ruleId, gid, sid, text, enabled, action, source]) => ({
      id: ruleId,
      gid,
      sid,
      text,
      enabled,
      action,
      source,
      metadata: read.metadata ? (parseRule(text).rule?.metadata ?? NO_METADATA) : NO_METADATA,
    }));
  },

  async insert(
    db: Queryable,
    orgId: number,
    fields: { name: string; description: string; restricted: boolean },
  ) {
    const [row] = await db.query<{ id: number }>(
      'INSERT INTO policies (org_id, name, description, restricted) VALUES ($1, $2, $3, $4) RETURNING id',
      [orgId, fields.name, fields.description, fields.restricted],
    );
    if (!row) throw new Error('INSERT … RETURNING gave no row');
    return row.id;
  },

  async updateFields(
    db: Queryable,
    id: number,
    fields: { name?: string; description?: string; restricted?: boolean },
  ) {
    await db.query(
      `UPDATE policies SET name = coalesce($2, name), description = coalesce($3, description),
              restricted = coalesce($4, restricted), updated_at = now() WHERE id = $1`,
      [id, fields.name ?? null, fields.description ?? null, fields.restricted ?? null],
    );
  },

  async setGroups(db: Queryable, id: number, groupIds: number[]) {
    await db.query('DELETE FROM policy_groups WHERE policy_id = $1', [id]);
    await db.query(
      'INSERT INTO policy_groups (policy_id, group_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
      [id, groupIds],
    );
  },

  async setOverrides(
    db: Queryable,
    id: number,
    overrides: { rule_id: number; action: OverrideAction }[],
  ) {
    await db.query('DELETE FROM policy_overrides WHERE policy_id = $1', [id]);
    await db.query(
      `INSERT INTO policy_overrides (policy_id, rule_id, action) SELECT $1, * FROM unnest($2::int[], $3::text[])
       ON CONFLICT (policy_id, rule_id) DO UPDATE SET action = excluded.action`,
      [id, overrides.map((o) => o.rule_id), overrides.map((o) => o.action)],
    );
  },

  async setMatchers(db: Queryable, id: number, matchers: PolicyMatcher[]) {
    await db.query('DELETE FROM policy_matchers WHERE policy_id = $1', [id]);
    await db.query(
      `INSERT INTO policy_matchers (policy_id, position, kind, matcher, from_text, to_text)
       SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[])`,
      [
        id,
        matchers.map((_, i) => i),
        matchers.map((m) => m.kind),
        matchers.map((m) => m.matcher),
        matchers.map((m) => m.from ?? null),
        matchers.map((m) => m.to ?? null),
      ],
    );
  },

  async setThresholds(db: Queryable, id: number, thresholds: Threshold[]) {
    await db.query('DELETE FROM policy_thresholds WHERE policy_id = $1', [id]);
    await db.query(
      'INSERT INTO policy_thresholds (policy_id, position, spec) SELECT $1, * FROM unnest($2::int[], $3::jsonb[])',
      [id, thresholds.map((_, i) => i), thresholds.map((t) => JSON.stringify(t))],
    );
  },

  async setEditors(db: Queryable, id: number, userIds: number[]) {
    await db.query('DELETE FROM policy_editors WHERE policy_id = $1', [id]);
    await db.query(
      'INSERT INTO policy_editors (policy_id, user_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
      [id, userIds],
    );
  },

  /** A new policy's first render (no hash yet) is its version 1; each change after adds one. */
  async recordRender(db: Queryable, id: number, sha256: string, ruleCount: number) {
    await db.query(
      `UPDATE policies SET version = CASE WHEN rendered_sha256 IN ($2, '') THEN version ELSE version + 1 END,
              rendered_sha256 = $2, rule_count = $3 WHERE id = $1`,
      [id, sha256, ruleCount],
    );
  },

  /** How many devices run the policy (a policy in use cannot be deleted). */
  async deviceCount(db: Queryable, id: number): Promise<number> {
    const [row] = await db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM devices WHERE policy_id = $1',
      [id],
    );
    return row?.count ?? 0;
  },

  async delete(db: Queryable, id: number) {
    await db.query('DELETE FROM policies WHERE id = $1', [id]);
  },

  async countOwned(
    db: Queryable,
    table: 'rule_groups' | 'rules' | 'users',
    orgId: number,
    ids: number[],
  ): Promise<number> {
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${table} WHERE org_id = $1 AND id = ANY($2::int[])`,
      [orgId, ids],
    );
    return row?.n ?? 0;
  },

  async groupIdsByName(
    db: Queryable,
    orgId: number,
    names: string[],
  ): Promise<Map<string, number>> {
    const rows = await db.query<{ id: number; name: string }>(
      'SELECT id, name FROM rule_groups WHERE org_id = $1 AND lower(name) = ANY($2::text[])',
      [orgId, names.map((n) => n.toLowerCase())],
    );
    return new Map(rows.map((r) => [r.name.toLowerCase(), r.id]));
  },

  async ruleIdsByKey(
    db: Queryable,
    orgId: number,
    keys: { gid: number; sid: number }[],
  ): Promise<Map<string, number>> {
    const rows = await db.query<{ id: number; gid: number; sid: number }>(
      `SELECT r.id, r.gid, r.sid FROM rules r JOIN unnest($2::int[], $3::bigint[]) AS k(gid, sid)
           ON r.gid = k.gid AND r.sid = k.sid WHERE r.org_id = $1`,
      [orgId, keys.map((k) => k.gid), keys.map((k) => k.sid)],
    );
    return new Map(rows.map((r) => [`${r.gid}:${r.sid}`, r.id]));
  },

  async ruleKeys(db: Queryable, ids: number[]): Promise<Map<number, { gid: number; sid: number }>> {
    const rows = await db.query<{ id: number; gid: number; sid: number }>(
      'SELECT id, gid, sid FROM rules WHERE id = ANY($1::int[])',
      [ids],
    );
    return new Map(rows.map((r) => [r.id, { gid: r.gid, sid: r.sid }]));
  },
};
