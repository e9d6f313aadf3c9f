import type { ChainPolicies, FirewallRule } from '@palisade/contract';
import type { Queryable } from '../../db/client.js';
import { pagedList, type ListSql, type ListSpec } from '../../db/list-query.js';

export interface RulesetRow {
  id: number;
  name: string;
  description: string;
  policies: ChainPolicies;
  rules: FirewallRule[];
  device_count: number;
  updated_at: Date;
}

const SELECT_RULESET = `SELECT s.id, s.name, s.description, s.policies, s.rules, s.updated_at,
    (SELECT count(*)::int FROM devices d WHERE d.firewall_id = s.id) AS device_count
  FROM firewall_rulesets s`;

export const RULESET_LIST_SPEC: ListSpec = {
  sortable: {
    id: 's.id',
    name: 'lower(s.name)',
    updated_at: 's.updated_at',
    device_count: 'device_count',
  },
  filterable: { name: { sql: 's.name', type: 'text' } },
  searchable: ['s.name', 's.description'],
  defaultSort: 's.id ASC',
};

export const firewallRepository = {
  list(db: Queryable, sql: ListSql) {
    return pagedList<RulesetRow>(
      db,
      { select: SELECT_RULESET, countFrom: 'FROM firewall_rulesets s', scope: 's.org_id = $1' },
      sql,
    );
  },

  /** Whether the ruleset is the organization's. */
  async isOwned(db: Queryable, orgId: number, id: number): Promise<boolean> {
    const rows = await db.query('SELECT 1 FROM firewall_rulesets WHERE org_id = $1 AND id = $2', [
      orgId,
      id,
    ]);
    return rows.length > 0;
  },

  async find(db: Queryable, orgId: number, id: number): Promise<RulesetRow | undefined> {
    const [row] = await db.query<RulesetRow>(
      `${SELECT_RULESET} WHERE s.org_id = $1 AND s.id = $2`,
      [orgId, id],
    );
    return row;
  },

  async insert(
    db: Queryable,
    orgId: number,
    fields: { name: string; description: string; policies: ChainPolicies; rules: FirewallRule[] },
  ) {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO firewall_rulesets (org_id, name, description, policies, rules)
       VALUES ($1, $2, $3, $4::jsonb, $5::jsonb) RETURNING id`,
      [
        orgId,
        fields.name,
        fields.description,
        JSON.stringify(fields.policies),
        JSON.stringify(fields.rules),
      ],
    );
    if (!row) throw new Error('INSERT … RETURNING gave no row');
    return row.id;
  },

  async update(
    db: Queryable,
    id: number,
    fields: { name: string; description: string; policies: ChainPolicies; rules: FirewallRule[] },
  ) {
    await db.query(
      `UPDATE firewall_rulesets SET name = $2, description = $3, policies = $4::jsonb, rules = $5::jsonb, updated_at = now()
        WHERE id = $1`,
      [
        id,
        fields.name,
        fields.description,
        JSON.stringify(fields.policies),
        JSON.stringify(fields.rules),
      ],
    );
  },

  /** The organization's rulesets with a rule that has an end date (locked, for the expiry). */
  withRuleExpiries(db: Queryable, orgId: number, lock = false): Promise<RulesetRow[]> {
    return db.query<RulesetRow>(
      `${SELECT_RULESET} WHERE s.org_id = $1
          AND EXISTS (SELECT 1 FROM jsonb_array_elements(s.rules) r WHERE r->>'expires_at' IS NOT NULL)
        ORDER BY s.id${lock ? ' FOR UPDATE OF s' : ''}`,
      [orgId],
    );
  },

  /** Organizations with a firewall rule due by `now`. */
  async orgsWithExpiredRules(db: Queryable, now: Date): Promise<number[]> {
    const rows = await db.query<{ org_id: number }>(
      `SELECT DISTINCT s.org_id FROM firewall_rulesets s, jsonb_array_elements(s.rules) r
        WHERE r->>'expires_at' IS NOT NULL AND (r->>'expires_at')::timestamptz <= $1`,
      [now],
    );
    return rows.map((r) => r.org_id);
  },

  async delete(db: Queryable, id: number) {
    await db.query('DELETE FROM firewall_rulesets WHERE id = $1', [id]);
  },
};
