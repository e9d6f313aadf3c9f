import type { AlertBulkAction } from '@palisade/contract';
import type { z } from 'zod';
import type { Queryable } from '../../db/client.js';
import { alertWhere, type ResolvedAlertFilters } from './alert-filters.js';

type BulkAction = z.infer<typeof AlertBulkAction>;

/**
 * What an action adds to the filter so that it touches only the alerts it changes: the dry
 * run counts with the same clause, so the count shown is the count changed.
 */
const PENDING: Record<BulkAction, string | undefined> = {
  acknowledge: 'a.acknowledged_at IS NULL',
  reopen: 'a.acknowledged_at IS NOT NULL',
  star: 'a.starred_at IS NULL',
  unstar: 'a.starred_at IS NOT NULL',
  comment: undefined,
};

function bulkWhere(orgId: number, filters: ResolvedAlertFilters, action: BulkAction) {
  const { where, params } = alertWhere(orgId, filters);
  const pending = PENDING[action];
  return { where: pending ? `${where} AND ${pending}` : where, params };
}

const SET: Record<Exclude<BulkAction, 'comment'>, string> = {
  acknowledge: 'acknowledged_at = now(), acknowledged_by = $USER',
  reopen: 'acknowledged_at = NULL, acknowledged_by = NULL',
  star: 'starred_at = now(), starred_by = $USER',
  unstar: 'starred_at = NULL, starred_by = NULL',
};

/** Bulk triage and comments over the alerts table (owned by the alerts module). */
export const alertTriageRepository = {
  /** How many alerts `apply` would change now. */
  async count(db: Queryable, orgId: number, filters: ResolvedAlertFilters, action: BulkAction) {
    const { where, params } = bulkWhere(orgId, filters, action);
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM device_alerts a WHERE ${where}`,
      params,
    );
    return row?.n ?? 0;
  },

  /**
   * One statement over every matching alert: PostgreSQL prunes it to the partitions of the
   * filter's time window. Answers how many alerts changed.
   */
  async apply(
    db: Queryable,
    orgId: number,
    filters: ResolvedAlertFilters,
    request: { action: BulkAction; userId: number | null; comment?: string },
  ) {
    const { where, params } = bulkWhere(orgId, filters, request.action);
    // Bound only when the statement uses it: an unused parameter has no type to infer.
    const user = () => {
      params.push(request.userId);
      return `$${params.length}::int`;
    };
    let sql: string;
    if (request.action === 'comment') {
      const author = user();
      params.push(request.comment ?? '');
      sql = `INSERT INTO alert_comments (org_id, alert_id, time, user_id, body)
             SELECT a.org_id, a.id, a.time, ${author}, $${params.length}::text
               FROM device_alerts a WHERE ${where}`;
    } else {
      const set = SET[request.action];
      sql = `UPDATE device_alerts a SET ${set.includes('$USER') ? set.replaceAll('$USER', user()) : set}
              WHERE ${where}`;
    }
    const [row] = await db.query<{ n: number }>(
      `WITH changed AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM changed`,
      params,
    );
    return row?.n ?? 0;
  },

  /** Stars or unstars one alert (a star keeps its first time and author); its message, or none. */
  async starOne(
    db: Queryable,
    orgId: number,
    id: number,
    request: { starred: boolean; userId: number | null },
  ) {
    const [row] = await db.query<{ msg: string | null }>(
      `UPDATE device_alerts
          SET starred_at = CASE WHEN $3 THEN coalesce(starred_at, now()) END,
              starred_by = CASE WHEN $3 THEN coalesce(starred_by, $4::int) END
        WHERE org_id = $1 AND id = $2 RETURNING msg`,
      [orgId, id, request.starred, request.userId],
    );
    return row;
  },

  /** Adds a comment to one alert of the organization; false when there is no such alert. */
  async commentOne(
    db: Queryable,
    orgId: number,
    id: number,
    comment: { body: string; userId: number | null },
  ) {
    const rows = await db.query<{ id: number }>(
      `INSERT INTO alert_comments (org_id, alert_id, time, user_id, body)
       SELECT a.org_id, a.id, a.time, $3::int, $4::text FROM device_alerts a
        WHERE a.org_id = $1 AND a.id = $2 RETURNING id`,
      [orgId, id, comment.userId, comment.body],
    );
    return rows.length > 0;
  },

  async comments(db: Queryable, orgId: number, alertId: number) {
    return db.query<{
      id: number;
      body: string;
      author: string | null;
      author_id: number | null;
      created_at: Date;
      edited_at: Date | null;
    }>(
      `SELECT c.id::int AS id, c.body, u.email AS author, c.user_id AS author_id, c.created_at,
              c.edited_at
         FROM alert_comments c
         LEFT JOIN users u ON u.id = c.user_id
        WHERE c.org_id = $1 AND c.alert_id = $2 ORDER BY c.created_at, c.id`,
      [orgId, alertId],
    );
  },

  /** One comment of the organization, locked for its change; undefined when there is none. */
  async commentForUpdate(db: Queryable, orgId: number, commentId: number) {
    const [row] = await db.query<{ alert_id: number; user_id: number | null; body: string }>(
      `SELECT alert_id::int AS alert_id, user_id, body FROM alert_comments
        WHERE org_id = $1 AND id = $2 FOR UPDATE`,
      [orgId, commentId],
    );
    return row;
  },

  async editComment(db: Queryable, orgId: number, commentId: number, body: string) {
    await db.query(
      `UPDATE alert_comments SET body = $3, edited_at = now() WHERE org_id = $1 AND id = $2`,
      [orgId, commentId, body],
    );
  },

  async deleteComment(db: Queryable, orgId: number, commentId: number) {
    await db.query(`DELETE FROM alert_comments WHERE org_id = $1 AND id = $2`, [orgId, commentId]);
  },
};
