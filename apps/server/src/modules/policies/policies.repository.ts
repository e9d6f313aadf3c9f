import type { OverrideAction, PolicyMatcher, RuleOverride, Threshold } from '@palisade/contract';
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

/** An override or threshold with an end date, with what names it to an operator. */
export interface ExpiringRow {
  kind: 'override' | 'threshold';
  policy_id: number;
  policy_name: string;
  /** Override: the rule's gid:sid and the action; threshold: its spec. */
  gid: number | null;
  sid: number | null;
  action: OverrideAction | null;
  spec: Threshold | null;
  expires_at: Date;
  reason: string | null;
}

export interface PolicyParts {
  groups: { id: number; name: string }[];
  overrides: RuleOverride[];
  matchers: PolicyMatcher[];
  thresholds: Threshold[];
  editors: number[];
  /** The editors' e-mail addresses, in the order of `editors`. */
  editorEmails: string[];
  removedCount: number;
  resolveFlowbits: boolean;
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

/** Which rules of a policy's groups a render reads: see `rulesOf`. */
export interface RuleRead {
  metadata: boolean;
  enabledOr?: number[];
  /** With `enabledOr`: also every rule whose text mentions flowbits, for their resolution. */
  flowbits: boolean;
}

/** A rule that may render: enabled, turned on by an override, or (maybe) needed for flowbits. */
const CAN_RENDER = `(r.enabled OR r.id = ANY($2::int[]) OR ($3::boolean AND strpos(r.text, 'flowbits') > 0))`;

const emptyParts = (): PolicyParts => ({
  groups: [],
  overrides: [],
  matchers: [],
  thresholds: [],
  editors: [],
  editorEmails: [],
  removedCount: 0,
  resolveFlowbits: true,
});

const EXPIRING_SQL = `
  SELECT 'override' AS kind, o.policy_id, p.name AS policy_name, r.gid, r.sid::float8 AS sid,
         o.action, NULL::jsonb AS spec, o.expires_at, o.reason
    FROM policy_overrides o JOIN policies p ON p.id = o.policy_id JOIN rules r ON r.id = o.rule_id
   WHERE p.org_id = $1 AND o.expires_at <= $2
  UNION ALL
  SELECT 'threshold', t.policy_id, p.name, NULL, NULL, NULL, t.spec, t.expires_at, t.reason
    FROM policy_thresholds t JOIN policies p ON p.id = t.policy_id
   WHERE p.org_id = $1 AND t.expires_at <= $2
   ORDER BY expires_at, policy_id`;

export const policiesRepository = {
  /** Names of the policies built on the group. */
  async namesUsingGroup(db: Queryable, groupId: number): Promise<string[]> {
    const rows = await db.query<{ name: string }>(
      'SELECT p.name FROM policy_groups pg JOIN policies p ON p.id = pg.policy_id WHERE pg.group_id = $1 ORDER BY p.name',
      [groupId],
    );
    return rows.map((row) => row.name);
  },

  /** The organization's overrides and thresholds that expire by `until` (or have). */
  expiring(db: Queryable, orgId: number, until: Date): Promise<ExpiringRow[]> {
    return db.query<ExpiringRow>(EXPIRING_SQL, [orgId, until]);
  },

  /** Organizations with an override or threshold due by `now`. */
  async orgsWithExpired(db: Queryable, now: Date): Promise<number[]> {
    const rows = await db.query<{ org_id: number }>(
      `SELECT p.org_id FROM policy_overrides o JOIN policies p ON p.id = o.policy_id
        WHERE o.expires_at <= $1
       UNION
       SELECT p.org_id FROM policy_thresholds t JOIN policies p ON p.id = t.policy_id
        WHERE t.expires_at <= $1`,
      [now],
    );
    return rows.map((r) => r.org_id);
  },

  /** Deletes the organization's overrides and thresholds due by `now`; answers what went. */
  async deleteExpired(db: Queryable, orgId: number, now: Date): Promise<ExpiringRow[]> {
    const due = await db.query<ExpiringRow>(EXPIRING_SQL, [orgId, now]);
    if (due.length === 0) return due;
    await db.query(
      `DELETE FROM policy_overrides o USING policies p
        WHERE p.id = o.policy_id AND p.org_id = $1 AND o.expires_at <= $2`,
      [orgId, now],
    );
    await db.query(
      `DELETE FROM policy_thresholds t USING policies p
        WHERE p.id = t.policy_id AND p.org_id = $1 AND t.expires_at <= $2`,
      [orgId, now],
    );
    return due;
  },

  list(db: Queryable, sql: ListSql) {
    return pagedList<PolicyRow>(
      db,
      { select: SELECT_POLICY, countFrom: 'FROM policies p', scope: 'p.org_id = $1' },
      sql,
    );
  },

  /** Whether the policy is the organization's. */
  async isOwned(db: Queryable, orgId: number, id: number): Promise<boolean> {
    const rows = await db.query('SELECT 1 FROM policies WHERE org_id = $1 AND id = $2', [
      orgId,
      id,
    ]);
    return rows.length > 0;
  },

  async find(db: Queryable, orgId: number, id: number): Promise<PolicyRow | undefined> {
    const [row] = await db.query<PolicyRow>(`${SELECT_POLICY} WHERE p.org_id = $1 AND p.id = $2`, [
      orgId,
      id,
    ]);
    return row;
  },

  async parts(db: Queryable, id: number): Promise<PolicyParts> {
    return (await this.partsOf(db, [id])).get(id) ?? emptyParts();
  },

  /**
   * The parts of many policies by id (and the fields rendering reads from the policy's row), in
   * six statements however many there are (a list page,
   * or every policy a rule change reaches).
   */
  async partsOf(db: Queryable, ids: number[]): Promise<Map<number, PolicyParts>> {
    const [groups, overrides, matchers, thresholds, editors, removed] = await Promise.all([
      db.query<{ policy_id: number; id: number; name: string }>(
        `SELECT pg.policy_id, g.id, g.name FROM policy_groups pg JOIN rule_groups g ON g.id = pg.group_id
          WHERE pg.policy_id = ANY($1::int[]) ORDER BY lower(g.name), g.id`,
        [ids],
      ),
      db.query<{
        policy_id: number;
        rule_id: number;
        action: OverrideAction;
        expires_at: Date | null;
        reason: string | null;
      }>(
        `SELECT policy_id, rule_id, action, expires_at, reason FROM policy_overrides
          WHERE policy_id = ANY($1::int[]) ORDER BY rule_id`,
        [ids],
      ),
      db.query<{
        policy_id: number;
        kind: PolicyMatcher['kind'];
        matcher: string;
        from_text: string | null;
        to_text: string | null;
      }>(
        `SELECT policy_id, kind, matcher, from_text, to_text FROM policy_matchers
          WHERE policy_id = ANY($1::int[]) ORDER BY position`,
        [ids],
      ),
      db.query<{ policy_id: number; spec: Threshold }>(
        'SELECT policy_id, spec FROM policy_thresholds WHERE policy_id = ANY($1::int[]) ORDER BY position',
        [ids],
      ),
      db.query<{ policy_id: number; user_id: number; email: string }>(
        `SELECT e.policy_id, e.user_id, u.email FROM policy_editors e JOIN users u ON u.id = e.user_id
          WHERE e.policy_id = ANY($1::int[]) ORDER BY e.user_id`,
        [ids],
      ),
      db.query<{ policy_id: number; resolve_flowbits: boolean; n: number }>(
        `SELECT p.id AS policy_id, p.resolve_flowbits,
                (SELECT count(DISTINCT r.id)::int FROM policy_groups pg
                   JOIN group_rules gr ON gr.group_id = pg.group_id JOIN rules r ON r.id = gr.rule_id
                  WHERE pg.policy_id = p.id AND r.removed) AS n
           FROM policies p WHERE p.id = ANY($1::int[])`,
        [ids],
      ),
    ]);
    const byPolicy = new Map(ids.map((id) => [id, emptyParts()]));
    const of = (policyId: number) => byPolicy.get(policyId) ?? emptyParts();
    for (const g of groups) of(g.policy_id).groups.push({ id: g.id, name: g.name });
    for (const o of overrides) {
      of(o.policy_id).overrides.push({
        rule_id: o.rule_id,
        action: o.action,
        ...(o.expires_at === null ? {} : { expires_at: o.expires_at.toISOString() }),
        ...(o.reason === null ? {} : { reason: o.reason }),
      });
    }
    for (const m of matchers) {
      of(m.policy_id).matchers.push({
        kind: m.kind,
        matcher: m.matcher,
        ...(m.from_text === null ? {} : { from: m.from_text }),
        ...(m.to_text === null ? {} : { to: m.to_text }),
      });
    }
    for (const t of thresholds) of(t.policy_id).thresholds.push(t.spec);
    for (const e of editors) {
      of(e.policy_id).editors.push(e.user_id);
      of(e.policy_id).editorEmails.push(e.email);
    }
    for (const r of removed) {
      of(r.policy_id).removedCount = r.n;
      of(r.policy_id).resolveFlowbits = r.resolve_flowbits;
    }
    return byPolicy;
  },

  /**
   * The policy's rules as rendering needs them. A large policy holds tens of thousands of
   * rules, most of them disabled in their files: `enabledOr` (when given) limits the read to
   * rules that are enabled or have one of those ids (or, with `flowbits`, whose text mentions
   * flowbits: a rule disabled in its file may be enabled for them), and metadata (read from each rule's text)
   * only when asked. They come as one JSON value, not a row per rule: PGlite decodes rows one
   * value at a time in JavaScript, most of a 30,000-rule render.
   */
  async rulesOf(db: Queryable, id: number, read: RuleRead): Promise<RenderableRule[]> {
    const [row] = await db.query<{
      rules: [number, number, number, string, boolean, string, string][] | null;
    }>(
      // A semi-join, not DISTINCT: de-duplicating would sort every rule's whole text.
      `SELECT json_agg(json_build_array(r.id, r.gid, r.sid, r.text, r.enabled, r.action, r.source)) AS rules
         FROM rules r
        WHERE r.id IN (SELECT gr.rule_id FROM policy_groups pg JOIN group_rules gr ON gr.group_id = pg.group_id
                        WHERE pg.policy_id = $1)
          ${read.enabledOr ? `AND ${CAN_RENDER}` : ''}`,
      read.enabledOr ? [id, read.enabledOr, read.flowbits] : [id],
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

  /**
   * The rules held by any of the groups, each once with the ids of those groups that hold it,
   * read as `rulesOf` reads one policy's (see there): a batch of policies shares one read.
   */
  async rulesOfGroups(
    db: Queryable,
    groupIds: number[],
    read: RuleRead,
  ): Promise<(RenderableRule & { groupIds: number[] })[]> {
    const [row] = await db.query<{
      rules: [number, number, number, string, boolean, string, string, number[]][] | null;
    }>(
      `SELECT json_agg(json_build_array(r.id, r.gid, r.sid, r.text, r.enabled, r.action, r.source, m.group_ids)) AS rules
         FROM (SELECT rule_id, array_agg(group_id) AS group_ids FROM group_rules
                WHERE group_id = ANY($1::int[]) GROUP BY rule_id) m
         JOIN rules r ON r.id = m.rule_id
        ${read.enabledOr ? `WHERE ${CAN_RENDER}` : ''}`,
      read.enabledOr ? [groupIds, read.enabledOr, read.flowbits] : [groupIds],
    );
    return (row?.rules ?? []).map(([ruleId, gid, sid, text, enabled, action, source, groups]) => ({
      id: ruleId,
      gid,
      sid,
      text,
      enabled,
      action,
      source,
      metadata: read.metadata ? (parseRule(text).rule?.metadata ?? NO_METADATA) : NO_METADATA,
      groupIds: groups,
    }));
  },

  /** Every policy's id, by organization. */
  async idsByOrganization(db: Queryable): Promise<Map<number, number[]>> {
    const rows = await db.query<{ org_id: number; ids: number[] }>(
      'SELECT org_id, array_agg(id ORDER BY id) AS ids FROM policies GROUP BY org_id ORDER BY org_id',
    );
    return new Map(rows.map((row) => [row.org_id, row.ids]));
  },

  /**
   * The organization's policies built on any of the groups, or on a group that holds any of
   * the rules: those whose rendering a change of these can alter.
   */
  async idsHolding(
    db: Queryable,
    orgId: number,
    touched: { groupIds: number[]; ruleIds: number[] },
  ): Promise<number[]> {
    if (touched.groupIds.length === 0 && touched.ruleIds.length === 0) return [];
    const rows = await db.query<{ id: number }>(
      `SELECT DISTINCT pg.policy_id AS id FROM policy_groups pg JOIN policies p ON p.id = pg.policy_id
        WHERE p.org_id = $1
          AND (pg.group_id = ANY($2::int[])
               OR pg.group_id IN (SELECT group_id FROM group_rules WHERE rule_id = ANY($3::int[])))
        ORDER BY 1`,
      [orgId, touched.groupIds, touched.ruleIds],
    );
    return rows.map((r) => r.id);
  },

  /**
   * Records renders of many policies in one statement; a policy whose hash and count are as
   * stored is not written. A new policy's first render (no hash yet) is its version 1; each
   * change after adds one. The policies whose version moved, with it.
   */
  async recordRenders(
    db: Queryable,
    renders: { id: number; sha256: string; ruleCount: number }[],
  ): Promise<{ id: number; org_id: number; version: number }[]> {
    if (renders.length === 0) return [];
    const rows = await db.query<{ id: number; org_id: number; version: number; moved: boolean }>(
      `UPDATE policies p
          SET version = CASE WHEN p.rendered_sha256 IN (u.sha256, '') THEN p.version ELSE p.version + 1 END,
              rendered_sha256 = u.sha256, rule_count = u.rule_count
         FROM unnest($1::int[], $2::text[], $3::int[]) AS u(id, sha256, rule_count), policies old
        WHERE p.id = u.id AND old.id = u.id
          AND (old.rendered_sha256 IS DISTINCT FROM u.sha256 OR old.rule_count IS DISTINCT FROM u.rule_count)
       RETURNING p.id, p.org_id, p.version, old.rendered_sha256 IS DISTINCT FROM u.sha256 AS moved`,
      [renders.map((r) => r.id), renders.map((r) => r.sha256), renders.map((r) => r.ruleCount)],
    );
    return rows.filter((r) => r.moved).map(({ id, org_id, version }) => ({ id, org_id, version }));
  },

  async insert(
    db: Queryable,
    orgId: number,
    fields: { name: string; description: string; restricted: boolean; resolve_flowbits: boolean },
  ) {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO policies (org_id, name, description, restricted, resolve_flowbits)
       VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [orgId, fields.name, fields.description, fields.restricted, fields.resolve_flowbits],
    );
    if (!row) throw new Error('INSERT … RETURNING gave no row');
    return row.id;
  },

  async updateFields(
    db: Queryable,
    id: number,
    fields: {
      name?: string;
      description?: string;
      restricted?: boolean;
      resolve_flowbits?: boolean;
    },
  ) {
    await db.query(
      `UPDATE policies SET name = coalesce($2, name), description = coalesce($3, description),
              restricted = coalesce($4, restricted), resolve_flowbits = coalesce($5, resolve_flowbits),
              updated_at = now() WHERE id = $1`,
      [
        id,
        fields.name ?? null,
        fields.description ?? null,
        fields.restricted ?? null,
        fields.resolve_flowbits ?? null,
      ],
    );
  },

  async setGroups(db: Queryable, id: number, groupIds: number[]) {
    await db.query('DELETE FROM policy_groups WHERE policy_id = $1', [id]);
    await db.query(
      'INSERT INTO policy_groups (policy_id, group_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
      [id, groupIds],
    );
  },

  async setOverrides(db: Queryable, id: number, overrides: RuleOverride[]) {
    await db.query('DELETE FROM policy_overrides WHERE policy_id = $1', [id]);
    await db.query(
      `INSERT INTO policy_overrides (policy_id, rule_id, action, expires_at, reason)
       SELECT $1, * FROM unnest($2::int[], $3::text[], $4::timestamptz[], $5::text[])
       ON CONFLICT (policy_id, rule_id) DO UPDATE
         SET action = excluded.action, expires_at = excluded.expires_at, reason = excluded.reason`,
      [
        id,
        overrides.map((o) => o.rule_id),
        overrides.map((o) => o.action),
        overrides.map((o) => o.expires_at ?? null),
        overrides.map((o) => o.reason || null),
      ],
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
      `INSERT INTO policy_thresholds (policy_id, position, spec, expires_at, reason)
       SELECT $1, * FROM unnest($2::int[], $3::jsonb[], $4::timestamptz[], $5::text[])`,
      [
        id,
        thresholds.map((_, i) => i),
        thresholds.map((t) => JSON.stringify(t)),
        thresholds.map((t) => t.expires_at ?? null),
        thresholds.map((t) => t.reason || null),
      ],
    );
  },

  async setEditors(db: Queryable, id: number, userIds: number[]) {
    await db.query('DELETE FROM policy_editors WHERE policy_id = $1', [id]);
    await db.query(
      'INSERT INTO policy_editors (policy_id, user_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
      [id, userIds],
    );
  },

  async delete(db: Queryable, id: number) {
    await db.query('DELETE FROM policies WHERE id = $1', [id]);
  },
};
