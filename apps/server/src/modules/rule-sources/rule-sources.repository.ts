import { RULE_SOURCE_STATUS_FILTERS, type RuleSourceSchedule } from '@palisade/contract';
import type { Queryable } from '../../db/client.js';
import { pagedList, type ListSql, type ListSpec } from '../../db/list-query.js';

export interface SourceRow {
  id: number;
  org_id: number;
  name: string;
  url: string;
  checksum_url: string | null;
  catalogue_id: string | null;
  secret_ciphertext: string | null;
  headers_ciphertext: string | null;
  header_names: string[];
  schedule: RuleSourceSchedule;
  enabled: boolean;
  etag: string | null;
  last_modified: string | null;
  last_checksum: string | null;
  content_sha256: string | null;
  next_update_at: Date | null;
  created_at: Date;
  updated_at: Date;
  rule_count: number;
  enabled_count: number;
  group_count: number;
  last_checked_at: Date | null;
}

/** The fields a source is written with (ciphertexts already sealed). */
export interface SourceWrite {
  name: string;
  url: string;
  checksum_url: string | null;
  catalogue_id: string | null;
  secret_ciphertext: string | null;
  headers_ciphertext: string | null;
  header_names: string[];
  schedule: RuleSourceSchedule;
  enabled: boolean;
}

/**
 * When a source is next due from now, by its schedule (daily times are UTC); null when manual
 * or disabled. `s` is the rule_sources row.
 */
const NEXT_UPDATE = `CASE WHEN NOT s.enabled THEN NULL
  WHEN s.schedule->>'kind' = 'interval' THEN now() + make_interval(hours => (s.schedule->>'hours')::int)
  WHEN s.schedule->>'kind' = 'daily' THEN
    date_trunc('day', now(), 'UTC') + (s.schedule->>'time')::interval
      + CASE WHEN date_trunc('day', now(), 'UTC') + (s.schedule->>'time')::interval > now()
             THEN interval '0' ELSE interval '1 day' END
  ELSE NULL END`;

const SELECT_SOURCE = `SELECT s.*, counts.rule_count, counts.enabled_count, counts.group_count,
    checked.last_checked_at
  FROM rule_sources s
  CROSS JOIN LATERAL (
    SELECT (count(DISTINCT gr.rule_id) FILTER (WHERE NOT r.removed))::int AS rule_count,
      (count(DISTINCT gr.rule_id) FILTER (WHERE r.enabled AND NOT r.removed))::int AS enabled_count,
      count(DISTINCT g.id)::int AS group_count
    FROM rule_groups g
    LEFT JOIN group_rules gr ON gr.group_id = g.id
    LEFT JOIN rules r ON r.id = gr.rule_id
    WHERE g.source_id = s.id
  ) counts
  CROSS JOIN LATERAL (
    SELECT max(u.finished_at) AS last_checked_at FROM rule_source_updates u
     WHERE u.source_id = s.id AND u.status IN ('succeeded', 'unchanged')
  ) checked`;

/** The `status:` filter's values (RULE_SOURCE_STATUS_FILTERS), from the source's newest update. */
const LAST_STATUS = `CASE (SELECT u.status FROM rule_source_updates u
    WHERE u.source_id = s.id ORDER BY u.id DESC LIMIT 1)
  WHEN 'failed' THEN 'failed'
  WHEN 'succeeded' THEN 'succeeded' WHEN 'unchanged' THEN 'succeeded'
  WHEN 'queued' THEN 'running' WHEN 'running' THEN 'running'
  ELSE 'never' END`;

export const SOURCE_LIST_SPEC: ListSpec = {
  sortable: {
    id: 's.id',
    name: 'lower(s.name)',
    enabled: 's.enabled',
    rule_count: 'rule_count',
    last_checked_at: 'last_checked_at',
    next_update_at: 's.next_update_at',
    created_at: 's.created_at',
  },
  nullable: ['last_checked_at', 'next_update_at'],
  filterable: {
    name: { sql: 's.name', type: 'text' },
    enabled: { sql: 's.enabled', type: 'bool' },
    /** The newest update's outcome: `status:failed`, `succeeded`, `running` or `never`. */
    status: {
      type: 'custom',
      cast: 'text',
      values: RULE_SOURCE_STATUS_FILTERS,
      condition: (param) => `${LAST_STATUS} = ${param}`,
    },
  },
  searchable: ['s.name', 's.url'],
  defaultSort: 's.id ASC',
};

export const ruleSourcesRepository = {
  list(db: Queryable, sql: ListSql) {
    return pagedList<SourceRow>(
      db,
      { select: SELECT_SOURCE, countFrom: 'FROM rule_sources s', scope: 's.org_id = $1' },
      sql,
    );
  },

  async find(db: Queryable, orgId: number, id: number): Promise<SourceRow | undefined> {
    const [row] = await db.query<SourceRow>(`${SELECT_SOURCE} WHERE s.org_id = $1 AND s.id = $2`, [
      orgId,
      id,
    ]);
    return row;
  },

  async insert(db: Queryable, orgId: number, write: SourceWrite): Promise<number> {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO rule_sources AS s (org_id, name, url, checksum_url, catalogue_id, secret_ciphertext,
         headers_ciphertext, header_names, schedule, enabled)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       RETURNING id`,
      [
        orgId,
        write.name,
        write.url,
        write.checksum_url,
        write.catalogue_id,
        write.secret_ciphertext,
        write.headers_ciphertext,
        write.header_names,
        JSON.stringify(write.schedule),
        write.enabled,
      ],
    );
    if (!row) throw new Error('INSERT … RETURNING gave no row');
    // A new scheduled source is due at once, so that its rules arrive without waiting a day.
    await db.query(
      `UPDATE rule_sources s SET next_update_at = CASE WHEN ${NEXT_UPDATE} IS NULL THEN NULL ELSE now() END
        WHERE id = $1`,
      [row.id],
    );
    return row.id;
  },

  /**
   * Writes a source. A changed address forgets what the last fetch saw (its next fetch is a
   * whole one); a changed schedule or enabled flag sets when it is next due.
   */
  async update(
    db: Queryable,
    id: number,
    write: SourceWrite,
    changed: { address: boolean; schedule: boolean },
  ): Promise<void> {
    await db.query(
      `UPDATE rule_sources SET name = $2, url = $3, checksum_url = $4, secret_ciphertext = $5,
         headers_ciphertext = $6, header_names = $7, schedule = $8, enabled = $9, updated_at = now()
         ${changed.address ? ', etag = NULL, last_modified = NULL, last_checksum = NULL, content_sha256 = NULL' : ''}
       WHERE id = $1`,
      [
        id,
        write.name,
        write.url,
        write.checksum_url,
        write.secret_ciphertext,
        write.headers_ciphertext,
        write.header_names,
        JSON.stringify(write.schedule),
        write.enabled,
      ],
    );
    if (changed.schedule) {
      await db.query(`UPDATE rule_sources s SET next_update_at = ${NEXT_UPDATE} WHERE id = $1`, [
        id,
      ]);
    }
  },

  async remove(db: Queryable, orgId: number, id: number): Promise<boolean> {
    const rows = await db.query(
      'DELETE FROM rule_sources WHERE org_id = $1 AND id = $2 RETURNING id',
      [orgId, id],
    );
    return rows.length > 0;
  },

  /** What a successful fetch saw, for the next one's conditional request. */
  async recordFetch(
    db: Queryable,
    id: number,
    seen: {
      etag: string | null;
      lastModified: string | null;
      checksum: string | null;
      contentSha256: string | null;
    },
  ): Promise<void> {
    await db.query(
      `UPDATE rule_sources SET etag = $2, last_modified = $3, last_checksum = $4, content_sha256 = $5
        WHERE id = $1`,
      [id, seen.etag, seen.lastModified, seen.checksum, seen.contentSha256],
    );
  },

  /**
   * Queues an update of every source whose time has come, and sets when each is next due, in
   * one statement: sources another replica is queueing at the same moment are skipped (SKIP
   * LOCKED), so each due time queues one update.
   */
  async enqueueDue(db: Queryable): Promise<number> {
    const rows = await db.query<{ id: number }>(
      `WITH due AS (
         SELECT id FROM rule_sources
          WHERE enabled AND next_update_at <= now()
          ORDER BY next_update_at LIMIT 100 FOR UPDATE SKIP LOCKED
       ), moved AS (
         UPDATE rule_sources s SET next_update_at = ${NEXT_UPDATE}
           FROM due WHERE s.id = due.id RETURNING s.id, s.org_id
       )
       INSERT INTO rule_source_updates (org_id, source_id, trigger)
       SELECT org_id, id, 'schedule' FROM moved
       ON CONFLICT (source_id) WHERE status IN ('queued', 'running') DO NOTHING
       RETURNING id`,
    );
    return rows.length;
  },
};
