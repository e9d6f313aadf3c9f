import type { Queryable } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { copyTextBytes, copyTextLine } from '../../db/copy-text.js';
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
  enabled: boolean;
  text: string;
  source: string;
}

/** A stored rule as an import compares it. */
export interface StoredRuleDigest {
  id: number;
  rev: number | null;
  text_md5: string;
  source: string;
  removed: boolean;
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
  nullable: ['rev', 'proto', 'classtype', 'priority'],
  filterable: {
    msg: { sql: 'r.msg', type: 'contains' },
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

/** Rules as COPY text lines, each led by the columns `lead` gives it (e.g. id and org). */
function copyRows(
  records: RuleRecord[],
  lead: (index: number) => (number | null)[] = () => [],
): Buffer {
  const rows: string[] = [];
  records.forEach((r, index) => {
    rows.push(
      copyTextLine([
        ...lead(index),
        r.gid,
        r.sid,
        r.rev,
        r.action,
        r.proto,
        r.srcAddr,
        r.srcPort,
        r.direction,
        r.dstAddr,
        r.dstPort,
        r.msg,
        r.classtype,
        r.priority,
        r.enabled ? 't' : 'f',
        r.text,
        r.source,
      ]),
    );
  });
  return copyTextBytes(rows);
}

export const rulesRepository = {
  /** The signatures (gid 1 when the rule names none) of the organization's rules given. */
  async signaturesOf(db: Queryable, orgId: number, ruleIds: number[]) {
    if (ruleIds.length === 0) return [];
    return db.query<{ gid: number; sid: number }>(
      `SELECT coalesce(gid, 1) AS gid, sid::float8 AS sid FROM rules
        WHERE org_id = $1 AND id = ANY($2::int[])`,
      [orgId, ruleIds],
    );
  },

  list(db: Queryable, sql: ListSql) {
    return pagedList<RuleRow>(
      db,
      {
        select: `SELECT ${SUMMARY_COLUMNS} ${FROM}`,
        countFrom: FROM,
        scope: 'r.org_id = $1',
        pageKey: 'r.id',
      },
      sql,
    );
  },

  async details(db: Queryable, orgId: number, ids: number[]): Promise<RuleDetailRow[]> {
    return db.query<RuleDetailRow>(
      `SELECT ${SUMMARY_COLUMNS}, r.text ${FROM}
        WHERE r.org_id = $1 AND r.id = ANY($2::int[]) ORDER BY r.id`,
      [orgId, ids],
    );
  },

  /**
   * Every rule of the organization by `gid:sid`, with an MD5 of its text rather than the text:
   * an import compares tens of thousands of rules and needs only to know which changed.
   */
  async existing(db: Queryable, orgId: number): Promise<Map<string, StoredRuleDigest>> {
    // One JSON value rather than a row per rule: the embedded database decodes rows one value
    // at a time in JavaScript, a quarter of a second for an Emerging Threats-sized set.
    const [row] = await db.query<{
      rules: [number, number, number, number | null, string, string, boolean][] | null;
    }>(
      `SELECT json_agg(json_build_array(gid, sid, id, rev, md5(text), source, removed)) AS rules
       FROM rules WHERE org_id = $1`,
      [orgId],
    );
    const digests = new Map<string, StoredRuleDigest>();
    for (const [gid, sid, id, rev, textMd5, source, removed] of row?.rules ?? []) {
      digests.set(`${gid}:${sid}`, { id, rev, text_md5: textMd5, source, removed });
    }
    return digests;
  },

  /** Creates the file groups that do not exist yet; the ids of all of them by lower-case name. */
  async upsertFileGroups(
    db: Queryable,
    orgId: number,
    names: string[],
  ): Promise<Map<string, number>> {
    const rows = await db.query<{ id: number; name: string }>(
      `INSERT INTO rule_groups (org_id, name, kind) SELECT $1, unnest($2::text[]), 'file'
       ON CONFLICT (org_id, lower(name)) DO UPDATE SET updated_at = now()
       RETURNING id, name`,
      [orgId, names],
    );
    return new Map(rows.map((row) => [row.name.toLowerCase(), row.id]));
  },

  /**
   * The groups of a rule source for its archive's members (by lower-case member name): its own
   * groups by (source, name); a member whose name another group (an upload's, another
   * source's) already has gets `<source>/<member>` (listed in `renamed`). `left`: the source's
   * groups no member names any more.
   */
  async sourceGroups(
    db: Queryable,
    orgId: number,
    source: { id: number; name: string },
    members: string[],
  ): Promise<{
    ids: Map<string, number>;
    renamed: { member: string; group: string }[];
    left: number[];
  }> {
    const prefixed = (member: string) => `${source.name}/${member}`;
    const rows = await db.query<{ id: number; name: string; source_id: number | null }>(
      `SELECT id, name, source_id FROM rule_groups
        WHERE org_id = $1 AND (source_id = $2 OR lower(name) = ANY($3::text[]))`,
      [orgId, source.id, members.flatMap((m) => [m.toLowerCase(), prefixed(m).toLowerCase()])],
    );
    const own = new Map(
      rows.filter((r) => r.source_id === source.id).map((r) => [r.name.toLowerCase(), r.id]),
    );
    const taken = new Set(rows.map((r) => r.name.toLowerCase()));
    const ids = new Map<string, number>();
    const renamed: { member: string; group: string }[] = [];
    const create = new Map<string, string>();
    for (const member of members) {
      const existing = own.get(member.toLowerCase()) ?? own.get(prefixed(member).toLowerCase());
      if (existing !== undefined) {
        ids.set(member.toLowerCase(), existing);
        continue;
      }
      let name = member;
      if (taken.has(member.toLowerCase())) {
        name = prefixed(member);
        if (taken.has(name.toLowerCase())) {
          throw new AppError(
            'conflict',
            `Groups named ${member} and ${name} exist already: rename one so that the source's file ${member} has a group`,
          );
        }
        renamed.push({ member, group: name });
      }
      taken.add(name.toLowerCase());
      create.set(name, member);
    }
    if (create.size > 0) {
      const inserted = await db.query<{ id: number; name: string }>(
        `INSERT INTO rule_groups (org_id, name, kind, source_id)
         SELECT $1, unnest($2::text[]), 'file', $3 RETURNING id, name`,
        [orgId, [...create.keys()], source.id],
      );
      for (const row of inserted) ids.set((create.get(row.name) ?? row.name).toLowerCase(), row.id);
    }
    const used = new Set(ids.values());
    return { ids, renamed, left: [...own.values()].filter((id) => !used.has(id)) };
  },

  /** The stored texts of some rules of the organization (a changelog's before). */
  texts(db: Queryable, orgId: number, ids: number[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return db.query<{
      id: number;
      gid: number;
      sid: number;
      rev: number | null;
      msg: string;
      text: string;
      source: string;
    }>(
      `SELECT id, gid, sid, rev, msg, text, source FROM rules
        WHERE org_id = $1 AND id = ANY($2::int[])`,
      [orgId, ids],
    );
  },

  async groupMembers(db: Queryable, groupIds: number[]): Promise<Map<number, Set<number>>> {
    const rows = await db.query<{ group_id: number; rule_ids: number[] }>(
      `SELECT group_id, array_agg(rule_id) AS rule_ids FROM group_rules
       WHERE group_id = ANY($1::int[]) GROUP BY group_id`,
      [groupIds],
    );
    const members = new Map<number, Set<number>>(groupIds.map((id) => [id, new Set()]));
    for (const row of rows) members.set(row.group_id, new Set(row.rule_ids));
    return members;
  },

  /**
   * COPYs new rules straight into the table, batch by batch as `batches` yields them: on a
   * PostgreSQL server a batch is loaded while the caller produces the next. Afterwards, the ids
   * of the organization's rules by `gid:sid` (empty when no batch held a rule). Inside a
   * transaction only (its organization check holds until the commit).
   */
  async insertNew(
    db: Queryable,
    orgId: number,
    batches: AsyncIterable<RuleRecord[]>,
  ): Promise<Map<string, number>> {
    // The organization is read (and key-share locked, as each row's foreign key check would do)
    // once, so that the COPY need not check it once per rule.
    const organization = await db.query(
      'SELECT id FROM organizations WHERE id = $1 FOR KEY SHARE',
      [orgId],
    );
    if (organization.length === 0) throw new Error(`organization ${orgId} does not exist`);
    let inserted = 0;
    async function* rows() {
      for await (const batch of batches) {
        if (batch.length === 0) continue;
        inserted += batch.length;
        yield copyRows(batch, () => [orgId]);
      }
    }
    await db.copyFrom(
      `COPY rules (org_id, gid, sid, rev, action, proto, src_addr, src_port, direction, dst_addr,
                   dst_port, msg, classtype, priority, enabled, text, source)
       FROM STDIN`,
      rows(),
      { referencesRead: true },
    );
    if (inserted === 0) return new Map();
    const [row] = await db.query<{ keys: [number, number, number][] | null }>(
      'SELECT json_agg(json_build_array(gid, sid, id)) AS keys FROM rules WHERE org_id = $1',
      [orgId],
    );
    return new Map((row?.keys ?? []).map(([gid, sid, id]) => [`${gid}:${sid}`, id]));
  },

  /**
   * Makes each group's members exactly the given rules. Every group and rule id must have been
   * read in the caller's transaction: the embedded database does not check them again.
   */
  async setGroupMembers(db: Queryable, members: Map<number, Set<number>>): Promise<void> {
    if (members.size === 0) return;
    const groupIds = [...members.keys()];
    await db.query('DELETE FROM group_rules WHERE group_id = ANY($1::int[])', [groupIds]);
    const pairs = [...members].flatMap(([groupId, ruleIds]) =>
      [...ruleIds].map((ruleId) => [groupId, ruleId] as const),
    );
    if (pairs.length === 0) return;
    const rows = copyTextBytes(pairs.map(([groupId, ruleId]) => copyTextLine([groupId, ruleId])));
    await db.copyFrom('COPY group_rules (group_id, rule_id) FROM STDIN', rows, {
      referencesRead: true,
    });
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

  /**
   * Inserts or replaces rules by (gid, sid); returns their ids in input order. The rows go in
   * by COPY into a scratch table and then by one INSERT … ON CONFLICT: an Emerging Threats
   * import writes tens of thousands of rules, and COPY is the cheapest way in for that many.
   */
  /** The organization's rule of a signature: what an alert's detail shows of it. */
  async findBySignature(db: Queryable, orgId: number, gid: number, sid: number) {
    const [row] = await db.query<{ id: number; text: string; source: string; rev: number | null }>(
      'SELECT id, text, source, rev FROM rules WHERE org_id = $1 AND gid = $2 AND sid = $3',
      [orgId, gid, sid],
    );
    return row;
  },

  /** How many of ids are rules of the organization. */
  async countOwned(db: Queryable, orgId: number, ids: number[]): Promise<number> {
    const [row] = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM rules WHERE org_id = $1 AND id = ANY($2::int[])',
      [orgId, ids],
    );
    return row?.n ?? 0;
  },

  /** Those of the ids that are rules of the organization, by id. */
  async ownedIds(db: Queryable, orgId: number, ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await db.query<{ id: number }>(
      'SELECT id FROM rules WHERE org_id = $1 AND id = ANY($2::int[]) ORDER BY id',
      [orgId, ids],
    );
    return rows.map((r) => r.id);
  },

  /** The organization's rules of these signatures, by `gid:sid`. */
  async idsBySignature(
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

  /** The signatures of the rules, by id. */
  async keysOf(db: Queryable, ids: number[]): Promise<Map<number, { gid: number; sid: number }>> {
    const rows = await db.query<{ id: number; gid: number; sid: number }>(
      'SELECT id, gid, sid FROM rules WHERE id = ANY($1::int[])',
      [ids],
    );
    return new Map(rows.map((r) => [r.id, { gid: r.gid, sid: r.sid }]));
  },

  /** Gives a rule a new (gid, sid) in place, so its id and memberships stay. */
  async rekey(db: Queryable, id: number, key: { gid: number; sid: number }): Promise<void> {
    await db.query('UPDATE rules SET gid = $2, sid = $3 WHERE id = $1', [id, key.gid, key.sid]);
  },

  async upsert(db: Queryable, orgId: number, records: RuleRecord[]): Promise<number[]> {
    if (records.length === 0) return [];
    await db.query(`DROP TABLE IF EXISTS rule_import`);
    await db.query(
      `CREATE TEMP TABLE rule_import (gid integer, sid bigint, rev integer, action text, proto text,
         src_addr text, src_port text, direction text, dst_addr text, dst_port text, msg text,
         classtype text, priority integer, enabled boolean, text text, source text) ON COMMIT DROP`,
    );
    await db.copyFrom('COPY rule_import FROM STDIN', copyRows(records));
    const written = await db.query<{ id: number; gid: number; sid: number }>(
      `INSERT INTO rules (org_id, gid, sid, rev, action, proto, src_addr, src_port, direction, dst_addr,
                          dst_port, msg, classtype, priority, enabled, text, source)
       SELECT $1, gid, sid, rev, action, proto, src_addr, src_port, direction, dst_addr, dst_port, msg,
              classtype, priority, enabled, text, source
         FROM rule_import
       ON CONFLICT (org_id, gid, sid) DO UPDATE SET
         rev = excluded.rev, action = excluded.action, proto = excluded.proto, src_addr = excluded.src_addr,
         src_port = excluded.src_port, direction = excluded.direction, dst_addr = excluded.dst_addr,
         dst_port = excluded.dst_port, msg = excluded.msg, classtype = excluded.classtype,
         priority = excluded.priority, enabled = excluded.enabled, text = excluded.text,
         source = excluded.source, removed = false, updated_at = now()
       RETURNING id, gid, sid`,
      [orgId],
    );
    await db.query(`DROP TABLE rule_import`);
    const idByKey = new Map(written.map((row) => [`${row.gid}:${row.sid}`, row.id]));
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
