import type { Queryable } from '../../db/client.js';
import { pagedList, type ListSql, type ListSpec } from '../../db/list-query.js';

export interface RuleRow {
  id: number;
  gid: number;
  sid: number;
  rev: number | null;
  action: string;
  proto: string | null;
  src_addr: string | null;
  src_port: string | null;
  direction: string | null;
  dst_addr: string | null;
  dst_port: string | null;
  msg: string;
  classtype: string | null;
  priority: number | null;
  enabled: boolean;
  removed: boolean;
  source: string;
  groups: string[];
  updated_at: Date;
}

export interface RuleDetailRow extends RuleRow {
  text: string;
  metadata: { key: string; value: string }[];
  refs: { system: string; id: string }[];
  flowbits: string[];
}

/** A parsed rule ready to store. */
export interface RuleRecord {
  gid: number;
  sid: number;
  rev: number | null;
  action: string;
  proto: string | null;
  srcAddr: string | null;
  srcPort: string | null;
  direction: string | null;
  dstAddr: string | null;
  dstPort: string | null;
  msg: string;
  classtype: string | null;
  priority: number | null;
  metadata: string;
  refs: string;
  flowbits: string;
  enabled: boolean;
  text: string;
  source: string;
}

export interface ExistingRule {
  id: number;
  rev: number | null;
  text: string;
  source: string;
  removed: boolean;
}

const GROUP_NAMES = `coalesce((SELECT array_agg(g.name ORDER BY g.name) FROM group_rules gr
    JOIN rule_groups g ON g.id = gr.group_id WHERE gr.rule_id = r.id), '{}') AS groups`;
const SUMMARY_COLUMNS = `r.id, r.gid, r.sid, r.rev, r.action, r.proto, r.src_addr, r.src_port, r.direction,
  r.dst_addr, r.dst_port, r.msg, r.classtype, coalesce(r.priority, c.priority) AS priority, r.enabled,
  r.removed, r.source, r.updated_at, ${GROUP_NAMES}`;
const FROM = `FROM rules r LEFT JOIN classifications c ON c.org_id = r.org_id AND c.name = r.classtype`;

const inGroupWhere = (condition: string) =>
  `EXISTS (SELECT 1 FROM group_rules gr JOIN rule_groups g ON g.id = gr.group_id
            WHERE gr.rule_id = r.id AND ${condition})`;

export const RULE_LIST_SPEC: ListSpec = {
  sortable: {
    id: 'r.id',
    sid: 'r.sid',
    gid: 'r.gid',
    rev: 'r.rev',
    action: 'r.action',
    proto: 'r.proto',
    msg: 'r.msg',
    classtype: 'r.classtype',
    priority: 'coalesce(r.priority, c.priority)',
    enabled: 'r.enabled',
    source: 'r.source',
    updated_at: 'r.updated_at',
  },
  filterable: {
    sid: { sql: 'r.sid', type: 'int' },
    gid: { sql: 'r.gid', type: 'int' },
    action: { sql: 'r.action', type: 'text' },
    proto: { sql: 'r.proto', type: 'text' },
    classtype: { sql: 'r.classtype', type: 'text' },
    source: { sql: 'r.source', type: 'text' },
    enabled: { sql: 'r.enabled', type: 'bool' },
    removed: { sql: 'r.removed', type: 'bool' },
    group: {
      type: 'custom',
      cast: 'text',
      condition: (param) => inGroupWhere(`lower(g.name) = lower(${param})`),
    },
    group_id: {
      type: 'custom',
      cast: 'int',
      condition: (param) =>
        `EXISTS (SELECT 1 FROM group_rules gr WHERE gr.rule_id = r.id AND gr.group_id = ${param})`,
    },
  },
  searchable: ['r.msg', 'r.classtype', 'r.action', 'r.proto', 'r.sid::text'],
  searchExtra: (pattern) => [inGroupWhere(`g.name ILIKE ${pattern}`)],
  defaultSort: 'r.id ASC',
};

export const rulesRepository = {
  list(db: Queryable, sql: ListSql) {
    return pagedList<RuleRow>(
      db,
      { select: `SELECT ${SUMMARY_COLUMNS} ${FROM}`, countFrom: FROM, scope: 'r.org_id = $1' },
      sql,
    );
  },

  async details(db: Queryable, orgId: number, ids: number[]): Promise<RuleDetailRow[]> {
    return db.query<RuleDetailRow>(
      `SELECT ${SUMMARY_COLUMNS}, r.text, r.metadata, r.refs, r.flowbits ${FROM}
        WHERE r.org_id = $1 AND r.id = ANY($2::int[]) ORDER BY r.id`,
      [orgId, ids],
    );
  },

  async existing(db: Queryable, orgId: number): Promise<Map<string, ExistingRule>> {
    const rows = await db.query<ExistingRule & { gid: number; sid: number }>(
      'SELECT id, gid, sid, rev, text, source, removed FROM rules WHERE org_id = $1',
      [orgId],
    );
    return new Map(rows.map((row) => [`${row.gid}:${row.sid}`, row]));
  },

  async findByKey(
    db: Queryable,
    orgId: number,
    gid: number,
    sid: number,
  ): Promise<ExistingRule | undefined> {
    const [row] = await db.query<ExistingRule>(
      'SELECT id, rev, text, source, removed FROM rules WHERE org_id = $1 AND gid = $2 AND sid = $3',
      [orgId, gid, sid],
    );
    return row;
  },

  /** Inserts or replaces rules by (gid, sid) in one statement; returns their ids in input order. */
  async upsert(db: Queryable, orgId: number, records: RuleRecord[]): Promise<number[]> {
    if (records.length === 0) return [];
    const column = <T>(pick: (record: RuleRecord) => T) => records.map(pick);
    const rows = await db.query<{ id: number; gid: number; sid: number }>(
      `INSERT INTO rules (org_id, gid, sid, rev, action, proto, src_addr, src_port, direction, dst_addr,
                          dst_port, msg, classtype, priority, metadata, refs, flowbits, enabled, text, source)
       SELECT $1, u.gid, u.sid, u.rev, u.action, u.proto, u.src_addr, u.src_port, u.direction, u.dst_addr,
              u.dst_port, u.msg, u.classtype, u.priority, u.metadata::jsonb, u.refs::jsonb, u.flowbits::jsonb,
              u.enabled, u.text, u.source
         FROM unnest($2::int[], $3::bigint[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                     $10::text[], $11::text[], $12::text[], $13::text[], $14::int[], $15::text[], $16::text[],
                     $17::text[], $18::bool[], $19::text[], $20::text[])
           AS u(gid, sid, rev, action, proto, src_addr, src_port, direction, dst_addr, dst_port, msg, classtype,
                priority, metadata, refs, flowbits, enabled, text, source)
       ON CONFLICT (org_id, gid, sid) DO UPDATE SET
         rev = excluded.rev, action = excluded.action, proto = excluded.proto, src_addr = excluded.src_addr,
         src_port = excluded.src_port, direction = excluded.direction, dst_addr = excluded.dst_addr,
         dst_port = excluded.dst_port, msg = excluded.msg, classtype = excluded.classtype,
         priority = excluded.priority, metadata = excluded.metadata, refs = excluded.refs,
         flowbits = excluded.flowbits, enabled = excluded.enabled, text = excluded.text,
         source = excluded.source, removed = false, updated_at = now()
       RETURNING id, gid, sid`,
      [
        orgId,
        column((r) => r.gid),
        column((r) => r.sid),
        column((r) => r.rev),
        column((r) => r.action),
        column((r) => r.proto),
        column((r) => r.srcAddr),
        column((r) => r.srcPort),
        column((r) => r.direction),
        column((r) => r.dstAddr),
        column((r) => r.dstPort),
        column((r) => r.msg),
        column((r) => r.classtype),
        column((r) => r.priority),
        column((r) => r.metadata),
        column((r) => r.refs),
        column((r) => r.flowbits),
        column((r) => r.enabled),
        column((r) => r.text),
        column((r) => r.source),
      ],
    );
    const idByKey = new Map(rows.map((row) => [`${row.gid}:${row.sid}`, row.id]));
    return records.map((record) => idByKey.get(`${record.gid}:${record.sid}`) ?? -1);
  },

  async markRemoved(db: Queryable, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await db.query(
      'UPDATE rules SET removed = true, updated_at = now() WHERE id = ANY($1::int[])',
      [ids],
    );
  },

  async upsertClassifications(
    db: Queryable,
    orgId: number,
    entries: { name: string; description: string; priority: number }[],
  ): Promise<void> {
    if (entries.length === 0) return;
    await db.query(
      `INSERT INTO classifications (org_id, name, description, priority)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::int[])
       ON CONFLICT (org_id, name) DO UPDATE SET description = excluded.description, priority = excluded.priority`,
      [
        orgId,
        entries.map((e) => e.name),
        entries.map((e) => e.description),
        entries.map((e) => e.priority),
      ],
    );
  },
};
