import type { RejectedLine, RuleChangeKind } from '@palisade/contract';
import type { Queryable } from '../../db/client.js';
import { copyTextBytes, copyTextLine } from '../../db/copy-text.js';
import { pagedList, type ListSql, type ListSpec } from '../../db/list-query.js';

export interface UpdateRow {
  id: number;
  org_id: number;
  source_id: number;
  status: 'queued' | 'running' | 'succeeded' | 'unchanged' | 'failed';
  phase: 'fetching' | 'importing' | 'rendering' | null;
  trigger: 'manual' | 'schedule';
  requested_by: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  added: number;
  removed: number;
  changed: number;
  enabled: number;
  disabled: number;
  policies_bumped: number;
  bytes: number;
  error: string | null;
  warning_count: number;
}

export interface ChangeRow {
  id: number;
  update_id: number;
  source_id: number;
  kind: RuleChangeKind;
  gid: number;
  sid: number;
  rule_id: number | null;
  msg: string;
  file: string;
  old_rev: number | null;
  new_rev: number | null;
  old_text: string | null;
  new_text: string | null;
  at: Date;
}

export interface ChangeRecord {
  kind: RuleChangeKind;
  gid: number;
  sid: number;
  ruleId: number | null;
  msg: string;
  file: string;
  oldRev: number | null;
  newRev: number | null;
  oldText: string | null;
  newText: string | null;
}

/** What a claimed update is: its row, fenced by the claim's token. */
export interface ClaimedUpdate {
  id: number;
  org_id: number;
  source_id: number;
  token: string;
}

const UPDATE_COLUMNS = `id, org_id, source_id, status, phase, trigger, requested_by, created_at,
  started_at, finished_at, added, removed, changed, enabled, disabled, policies_bumped, bytes,
  error, warning_count`;

export const UPDATE_LIST_SPEC: ListSpec = {
  sortable: { id: 'u.id', created_at: 'u.created_at', status: 'u.status' },
  filterable: {
    status: { sql: 'u.status', type: 'text' },
    trigger: { sql: 'u.trigger', type: 'text' },
  },
  searchable: ['u.error'],
  defaultSort: 'u.id DESC',
};

const SELECT_CHANGE = `SELECT c.id, c.update_id, c.source_id, c.kind, c.gid, c.sid, c.rule_id, c.msg,
    c.file, c.old_rev, c.new_rev, c.old_text, c.new_text, coalesce(u.finished_at, u.created_at) AS at
  FROM rule_source_changes c JOIN rule_source_updates u ON u.id = c.update_id`;

export const CHANGE_LIST_SPEC: ListSpec = {
  sortable: { id: 'c.id', sid: 'c.sid', kind: 'c.kind', msg: 'c.msg', file: 'c.file' },
  filterable: {
    kind: { sql: 'c.kind', type: 'text' },
    sid: { sql: 'c.sid', type: 'int' },
    gid: { sql: 'c.gid', type: 'int' },
    file: { sql: 'c.file', type: 'text' },
  },
  searchable: ['c.msg'],
  defaultSort: 'c.id ASC',
};

/** Source updates of one organization import one at a time (two would race on its rules). */
const ORG_IMPORT_LOCK = 7_262_017;

export const sourceUpdatesRepository = {
  /** Holds, until the caller's transaction ends, the organization's right to import. */
  async lockOrgImports(db: Queryable, orgId: number): Promise<void> {
    await db.query('SELECT pg_advisory_xact_lock($1, $2)', [ORG_IMPORT_LOCK, orgId]);
  },

  /** The newest update of each source. */
  async lastUpdates(db: Queryable, sourceIds: number[]): Promise<Map<number, UpdateRow>> {
    if (sourceIds.length === 0) return new Map();
    const rows = await db.query<UpdateRow>(
      `SELECT DISTINCT ON (source_id) ${UPDATE_COLUMNS} FROM rule_source_updates
        WHERE source_id = ANY($1::int[]) ORDER BY source_id, id DESC`,
      [sourceIds],
    );
    return new Map(rows.map((row) => [row.source_id, row]));
  },

  listUpdates(db: Queryable, sql: ListSql) {
    return pagedList<UpdateRow>(
      db,
      {
        select: `SELECT ${UPDATE_COLUMNS} FROM rule_source_updates u`,
        countFrom: 'FROM rule_source_updates u',
        scope: 'u.org_id = $1 AND u.source_id = $2',
      },
      sql,
    );
  },

  async findUpdate(
    db: Queryable,
    orgId: number,
    sourceId: number,
    id: number,
  ): Promise<(UpdateRow & { warnings: RejectedLine[] }) | undefined> {
    const [row] = await db.query<UpdateRow & { warnings: RejectedLine[] }>(
      `SELECT ${UPDATE_COLUMNS}, warnings FROM rule_source_updates
        WHERE org_id = $1 AND source_id = $2 AND id = $3`,
      [orgId, sourceId, id],
    );
    return row;
  },

  /** Queues an update of the source, or finds the one already queued or running. */
  async enqueue(
    db: Queryable,
    source: { orgId: number; sourceId: number },
    requestedBy: string,
  ): Promise<number> {
    // The update the insert conflicted with can end before the next statement reads it (a
    // runner finishing it): then there is none pending, and a new one is queued after all.
    for (let attempt = 1; ; attempt += 1) {
      const [queued] = await db.query<{ id: number }>(
        `INSERT INTO rule_source_updates (org_id, source_id, trigger, requested_by)
         VALUES ($1, $2, 'manual', $3)
         ON CONFLICT (source_id) WHERE status IN ('queued', 'running') DO NOTHING
         RETURNING id`,
        [source.orgId, source.sourceId, requestedBy],
      );
      if (queued) return queued.id;
      const [pending] = await db.query<{ id: number }>(
        `SELECT id FROM rule_source_updates WHERE source_id = $1 AND status IN ('queued', 'running')`,
        [source.sourceId],
      );
      if (pending) return pending.id;
      if (attempt === 3) throw new Error('no pending update after conflicting inserts');
    }
  },

  /**
   * Claims the oldest queued update, or a running one whose lease passed (its replica died),
   * for `leaseMs`. Undefined when there is none another replica is not already holding.
   */
  async claim(db: Queryable, token: string, leaseMs: number): Promise<ClaimedUpdate | undefined> {
    const [row] = await db.query<{ id: number; org_id: number; source_id: number }>(
      `UPDATE rule_source_updates u
          SET status = 'running', phase = 'fetching', started_at = now(), claim_token = $1,
              lease_until = now() + make_interval(secs => $2)
        WHERE u.id = (
          SELECT id FROM rule_source_updates
           WHERE status = 'queued' OR (status = 'running' AND lease_until < now())
           ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING u.id, u.org_id, u.source_id`,
      [token, leaseMs / 1000],
    );
    return row ? { ...row, token } : undefined;
  },

  /** Moves a claimed update to its next phase and renews its lease; false if the claim is lost. */
  async setPhase(
    db: Queryable,
    claim: ClaimedUpdate,
    phase: 'fetching' | 'importing' | 'rendering',
    leaseMs: number,
  ): Promise<boolean> {
    const rows = await db.query(
      `UPDATE rule_source_updates SET phase = $3, lease_until = now() + make_interval(secs => $4)
        WHERE id = $1 AND claim_token = $2 AND status = 'running' RETURNING id`,
      [claim.id, claim.token, phase, leaseMs / 1000],
    );
    return rows.length > 0;
  },

  /**
   * Locks a claimed update's row for the caller's transaction: while it holds, no replica can
   * take it over. False when the claim was lost (the lease passed and another replica took it).
   */
  async holdClaim(db: Queryable, claim: ClaimedUpdate): Promise<boolean> {
    const rows = await db.query(
      `SELECT id FROM rule_source_updates
        WHERE id = $1 AND claim_token = $2 AND status = 'running' FOR UPDATE`,
      [claim.id, claim.token],
    );
    return rows.length > 0;
  },

  async finish(
    db: Queryable,
    claim: ClaimedUpdate,
    outcome: {
      status: 'succeeded' | 'unchanged' | 'failed';
      error?: string;
      bytes: number;
      counts?: Record<'added' | 'removed' | 'changed' | 'enabled' | 'disabled', number>;
      policiesBumped?: number;
      warnings?: RejectedLine[];
      warningCount?: number;
    },
  ): Promise<boolean> {
    const counts = outcome.counts;
    const rows = await db.query(
      `UPDATE rule_source_updates
          SET status = $3, error = $4, bytes = $5, added = $6, removed = $7, changed = $8,
              enabled = $9, disabled = $10, policies_bumped = $11, warnings = $12,
              warning_count = $13, phase = NULL, finished_at = clock_timestamp(), lease_until = NULL
        WHERE id = $1 AND claim_token = $2 AND status = 'running' RETURNING id`,
      [
        claim.id,
        claim.token,
        outcome.status,
        outcome.error ?? null,
        outcome.bytes,
        counts?.added ?? 0,
        counts?.removed ?? 0,
        counts?.changed ?? 0,
        counts?.enabled ?? 0,
        counts?.disabled ?? 0,
        outcome.policiesBumped ?? 0,
        JSON.stringify(outcome.warnings ?? []),
        outcome.warningCount ?? 0,
      ],
    );
    return rows.length > 0;
  },

  /** Writes an update's changelog in one COPY. */
  async insertChanges(db: Queryable, claim: ClaimedUpdate, changes: ChangeRecord[]): Promise<void> {
    if (changes.length === 0) return;
    const rows = copyTextBytes(
      changes.map((c) =>
        copyTextLine([
          claim.org_id,
          claim.id,
          claim.source_id,
          c.kind,
          c.gid,
          c.sid,
          c.ruleId,
          c.msg,
          c.file,
          c.oldRev,
          c.newRev,
          c.oldText,
          c.newText,
        ]),
      ),
    );
    await db.copyFrom(
      `COPY rule_source_changes (org_id, update_id, source_id, kind, gid, sid, rule_id, msg, file,
         old_rev, new_rev, old_text, new_text) FROM STDIN`,
      rows,
      { referencesRead: true },
    );
  },

  listChanges(db: Queryable, sql: ListSql) {
    return pagedList<ChangeRow>(
      db,
      {
        select: SELECT_CHANGE,
        countFrom: 'FROM rule_source_changes c',
        scope: 'c.org_id = $1 AND c.update_id = $2',
      },
      sql,
    );
  },

  ruleChanges(
    db: Queryable,
    orgId: number,
    key: { gid: number; sid: number; limit: number },
  ): Promise<ChangeRow[]> {
    return db.query<ChangeRow>(
      `${SELECT_CHANGE} WHERE c.org_id = $1 AND c.gid = $2 AND c.sid = $3
        ORDER BY c.update_id DESC, c.id DESC LIMIT $4`,
      [orgId, key.gid, key.sid, key.limit],
    );
  },
};
