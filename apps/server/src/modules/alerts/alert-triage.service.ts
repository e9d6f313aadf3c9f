import type { AlertComment } from '@palisade/contract';
import type { Database, Queryable } from '../../db/client.js';
import { forbidden, notFound } from '../../lib/app-error.js';
import { assertRole, EDITOR_ROLES, type Principal } from '../../plugins/auth.js';
import { notifyConsole } from '../../plugins/console-events.js';
import { recordAudit, userActor } from '../audit/audit.service.js';
import { alertTriageRepository as triageRepo } from './alert-triage.repository.js';

/** An alert's comments as the API shows them, oldest first. */
export async function alertComments(
  db: Queryable,
  orgId: number,
  id: number,
): Promise<AlertComment[]> {
  const rows = await triageRepo.comments(db, orgId, id);
  return rows.map((c) => ({
    ...c,
    created_at: c.created_at.toISOString(),
    edited_at: c.edited_at?.toISOString() ?? null,
  }));
}

/**
 * Triage of one alert from its row or drawer: the star and comments. Administrators and
 * Operators, as for acknowledging; each change is audited in its own transaction and shown
 * live on the other consoles. (Every alert of a filter at once: `bulk` in alerts.service.ts.)
 * A comment is corrected or removed by its author, or by an Administrator (moderation).
 */
export function createAlertTriageService(db: Database) {
  return {
    async star(principal: Principal, id: number, starred: boolean) {
      assertRole(principal, ...EDITOR_ROLES);
      await db.transaction(async (tx) => {
        const row = await triageRepo.starOne(tx, principal.orgId, id, {
          starred,
          userId: principal.userId,
        });
        if (!row) throw notFound('Alert');
        await notifyConsole(tx, principal.orgId, 'alerts');
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'star',
          object: { type: 'alert', id, name: row.msg },
          after: { starred },
        });
      });
      return { starred, msg: starred ? 'Alert starred' : 'Star removed' };
    },

    async comment(principal: Principal, id: number, body: string) {
      assertRole(principal, ...EDITOR_ROLES);
      return db.transaction(async (tx) => {
        const added = await triageRepo.commentOne(tx, principal.orgId, id, {
          body,
          userId: principal.userId,
        });
        if (!added) throw notFound('Alert');
        await notifyConsole(tx, principal.orgId, 'alerts');
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'comment',
          object: { type: 'alert', id, name: null },
          after: { comment: body },
        });
        return { data: await alertComments(tx, principal.orgId, id) };
      });
    },

    async editComment(principal: Principal, commentId: number, body: string) {
      return changeComment(principal, commentId, async (tx, comment) => {
        await triageRepo.editComment(tx, principal.orgId, commentId, body);
        return { action: 'update', before: { comment: comment.body }, after: { comment: body } };
      });
    },

    async deleteComment(principal: Principal, commentId: number) {
      return changeComment(principal, commentId, async (tx, comment) => {
        await triageRepo.deleteComment(tx, principal.orgId, commentId);
        return { action: 'delete', before: { comment: comment.body }, after: null };
      });
    },
  };

  /** The checks and record every change of an existing comment shares; answers the alert's comments. */
  async function changeComment(
    principal: Principal,
    commentId: number,
    change: (
      tx: Queryable,
      comment: { alert_id: number; body: string },
    ) => Promise<{
      action: 'update' | 'delete';
      before: { comment: string };
      after: { comment: string } | null;
    }>,
  ) {
    assertRole(principal, ...EDITOR_ROLES);
    return db.transaction(async (tx) => {
      const comment = await triageRepo.commentForUpdate(tx, principal.orgId, commentId);
      if (!comment) throw notFound('Comment');
      if (comment.user_id !== principal.userId && principal.role !== 'Administrator')
        throw forbidden('Only its author or an Administrator may change a comment');
      const record = await change(tx, comment);
      await notifyConsole(tx, principal.orgId, 'alerts');
      await recordAudit(tx, {
        orgId: principal.orgId,
        actor: userActor(principal),
        action: record.action,
        object: { type: 'alert_comment', id: commentId, name: null },
        before: record.before,
        after: record.after,
      });
      return { data: await alertComments(tx, principal.orgId, comment.alert_id) };
    });
  }
}
