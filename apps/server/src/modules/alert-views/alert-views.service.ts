import {
  MAX_ALERT_VIEWS_PER_USER,
  type AlertView,
  type AlertViewUpdate,
  type AlertViewWrite,
  type ListQuery,
  type ListResponse,
} from '@palisade/contract';
import type { z } from 'zod';
import type { Database, Queryable } from '../../db/client.js';
import { orConflict } from '../../db/errors.js';
import { buildListSql } from '../../db/list-query.js';
import { AppError, forbidden, notFound } from '../../lib/app-error.js';
import { assertRole, EDITOR_ROLES, type Principal } from '../../plugins/auth.js';
import { changedFields, recordAudit, userActor } from '../audit/audit.service.js';
import { auditedView, presentAlertView } from './alert-views.presenter.js';
import { ALERT_VIEW_LIST_SPEC, alertViewsRepository as repo } from './alert-views.repository.js';

/**
 * Saved views of the alerts screen. Every role keeps views of its own; sharing one with the
 * organization takes an Operator or Administrator (it shows in everyone's list). A view is
 * changed or deleted by its owner only: a shared view of someone else is answered 403, a
 * private one (or another organization's) 404, as if it did not exist.
 */
export function createAlertViewsService(db: Database) {
  async function loadOwn(tx: Queryable, principal: Principal, id: number) {
    const row = await repo.findVisible(tx, principal.orgId, principal.userId, id);
    if (!row) throw notFound('View');
    if (row.user_id !== principal.userId) throw forbidden('Only its owner changes a view');
    return row;
  }
  const named = <T>(write: () => Promise<T>, name: string | undefined) =>
    orConflict(write, `You already have a view named '${name ?? ''}'`);
  const assertMayShare = (principal: Principal, shared: boolean | undefined) => {
    if (shared) assertRole(principal, ...EDITOR_ROLES);
  };

  return {
    async list(principal: Principal, query: ListQuery): Promise<ListResponse<AlertView>> {
      const { rows, total } = await repo.list(
        db,
        buildListSql(query, ALERT_VIEW_LIST_SPEC, [principal.orgId, principal.userId]),
      );
      return {
        data: rows.map((row) => presentAlertView(row, principal.userId)),
        recordsTotal: total,
      };
    },

    async create(principal: Principal, body: z.output<typeof AlertViewWrite>): Promise<AlertView> {
      assertMayShare(principal, body.shared);
      return db.transaction(async (tx) => {
        if ((await repo.countOwn(tx, principal.userId)) >= MAX_ALERT_VIEWS_PER_USER)
          throw new AppError(
            'conflict',
            `You have ${MAX_ALERT_VIEWS_PER_USER} views: delete one to save another`,
          );
        const id = await named(() => repo.insert(tx, principal, body), body.name);
        const row = await repo.findVisible(tx, principal.orgId, principal.userId, id);
        if (!row) throw new Error('the view just saved is not readable');
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'create',
          object: { type: 'alert_view', id, name: row.name },
          after: auditedView(row),
        });
        return presentAlertView(row, principal.userId);
      });
    },

    async update(
      principal: Principal,
      id: number,
      body: z.output<typeof AlertViewUpdate>,
    ): Promise<AlertView> {
      return db.transaction(async (tx) => {
        const before = await loadOwn(tx, principal, id);
        if (body.shared !== before.shared) assertMayShare(principal, body.shared);
        await named(() => repo.update(tx, id, body), body.name);
        const row = await loadOwn(tx, principal, id);
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'update',
          object: { type: 'alert_view', id, name: row.name },
          ...changedFields(auditedView(before), auditedView(row)),
        });
        return presentAlertView(row, principal.userId);
      });
    },

    async remove(principal: Principal, id: number): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await loadOwn(tx, principal, id);
        await repo.delete(tx, id);
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'delete',
          object: { type: 'alert_view', id, name: row.name },
          before: auditedView(row),
        });
      });
    },
  };
}
