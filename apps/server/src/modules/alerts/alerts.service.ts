import type { Alert, AlertDetail, AlertFilters, AlertTune } from '@palisade/contract';
import type { z } from 'zod';
import type { Database, Queryable } from '../../db/client.js';
import { isoFromEpochMicros } from '../../db/microsecond-time.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { assertRole, EDITOR_ROLES, type Principal } from '../../plugins/auth.js';
import { notifyConsole } from '../../plugins/console-events.js';
import { createPoliciesService } from '../policies/policies.service.js';
import { cursorOf, isSignatureText, type ResolvedAlertFilters } from './alert-filters.js';
import {
  alertRollupRepository as rollupRepo,
  rollupAnswers,
  type RollupAlert,
} from './alert-rollup.repository.js';
import { alertsRepository as repo, type AlertRow } from './alerts.repository.js';

const present = (row: AlertRow): Alert => ({
  id: Number(row.id),
  device_id: row.device_id,
  device: row.device,
  time: isoFromEpochMicros(row.time_us),
  gid: row.gid,
  sid: row.sid === null ? null : Number(row.sid),
  rev: row.rev,
  msg: row.msg,
  category: row.category,
  severity: row.severity,
  action: row.action,
  proto: row.proto,
  app_proto: row.app_proto,
  src_ip: row.src_ip,
  src_port: row.src_port,
  dest_ip: row.dest_ip,
  dest_port: row.dest_port,
  acknowledged: row.acknowledged,
});

/**
 * Keeps the alert rollup and the signature catalogue whole: every way alerts are stored calls
 * this with the same rows, in the transaction that stores them.
 */
export const noteStoredAlerts = (
  tx: Queryable,
  orgId: number,
  deviceId: number,
  alerts: readonly RollupAlert[],
) => rollupRepo.addBatch(tx, orgId, deviceId, alerts);

export function createAlertsService(db: Database) {
  const policies = createPoliciesService(db);

  /** A text signature filter gets the ids it is known under (one small lookup). */
  async function resolve<F extends AlertFilters>(orgId: number, filters: F) {
    if (!isSignatureText(filters.signature)) return filters;
    const ids = await repo.signatureIds(db, orgId, filters.signature);
    return { ...filters, signature_ids: ids } satisfies ResolvedAlertFilters;
  }

  return {
    async page(
      principal: Principal,
      request: AlertFilters & { limit: number; before?: string; count_limit: number },
    ) {
      const query = await resolve(principal.orgId, request);
      const [rows, total] = await Promise.all([
        repo.page(db, principal.orgId, query, query.limit + 1, query.before),
        query.before
          ? Promise.resolve(-1)
          : repo.count(db, principal.orgId, query, query.count_limit),
      ]);
      const more = rows.length > query.limit;
      const data = rows.slice(0, query.limit);
      const last = data.at(-1);
      // A later page does not count again: the client keeps the first page's total.
      const recordsTotal = total >= 0 ? total : data.length;
      return {
        data: data.map(present),
        recordsTotal,
        recordsTotalIsExact: total >= 0 && total < query.count_limit,
        next_cursor: more && last ? cursorOf(last) : null,
      };
    },

    async detail(principal: Principal, id: number): Promise<z.infer<typeof AlertDetail>> {
      const row = await repo.detail(db, principal.orgId, id);
      if (!row) throw notFound('Alert');
      const rule =
        row.gid !== null && row.sid !== null
          ? await repo.ruleFor(db, principal.orgId, row.gid, Number(row.sid))
          : undefined;
      return {
        ...present(row),
        event: row.event,
        rule: rule ?? null,
        acknowledged_at: row.acknowledged_at?.toISOString() ?? null,
        acknowledged_by: row.acknowledged_by,
        policy_id: row.policy_id,
      };
    },

    async groups(principal: Principal, request: AlertFilters, limit: number) {
      const filters = await resolve(principal.orgId, request);
      const rows =
        rollupAnswers(filters) && (await rollupRepo.isCompact(db))
          ? await rollupRepo.groups(db, principal.orgId, filters, limit)
          : await rollupRepo.groupsFromAlerts(db, principal.orgId, filters, limit);
      return {
        data: rows.map(({ first_seen_us, last_seen_us, ...r }) => ({
          ...r,
          sid: r.sid === null ? null : Number(r.sid),
          first_seen: isoFromEpochMicros(first_seen_us),
          last_seen: isoFromEpochMicros(last_seen_us),
        })),
      };
    },

    /** Counts per time bucket between the filter's bounds (or the data's own range). */
    async histogram(principal: Principal, request: AlertFilters, buckets: number) {
      const filters = await resolve(principal.orgId, request);
      // The data's own range is read only for a bound the filter leaves open.
      const range =
        filters.since && filters.until ? undefined : await repo.range(db, principal.orgId, filters);
      const start = filters.since ? new Date(filters.since) : range?.first;
      const end = filters.until ? new Date(filters.until) : range?.last;
      if (!start || !end) return { interval: 0, data: [] };
      const span = Math.max(1, (end.getTime() - start.getTime()) / 1000);
      const seconds = Math.max(1, Math.ceil(span / buckets));
      const rows = await repo.histogram(db, principal.orgId, filters, start, seconds, buckets);
      const counts = new Map(rows.map((r) => [r.bucket, r.count]));
      const used = Math.min(buckets, Math.ceil(span / seconds) + 1);
      return {
        interval: seconds,
        data: Array.from({ length: used }, (_, i) => ({
          time: new Date(start.getTime() + i * seconds * 1000).toISOString(),
          count: counts.get(i) ?? 0,
        })),
      };
    },

    async acknowledge(principal: Principal, ids: number[], acknowledged: boolean) {
      assertRole(principal, ...EDITOR_ROLES);
      const changed = await db.transaction(async (tx) => {
        const count = await repo.acknowledge(
          tx,
          principal.orgId,
          ids,
          principal.userId,
          acknowledged,
        );
        // Other consoles show the new state live.
        await notifyConsole(tx, principal.orgId, 'alerts');
        return count;
      });
      return { msg: `${changed} alert(s) ${acknowledged ? 'acknowledged' : 'reopened'}` };
    },

    /**
     * Tuning from an alert, in the policy of the device that raised it: disable the rule, or
     * suppress the alert's source for that signature. It goes through the policy's own checks
     * (role, restricted access) and reaches the device like any other policy change. Each
     * refusal has its own code (TuneErrorCode); one that would change nothing is refused too.
     */
    async tune(principal: Principal, id: number, action: z.infer<typeof AlertTune>['action']) {
      const alert = await this.detail(principal, id);
      assertRole(principal, ...EDITOR_ROLES);
      if (alert.policy_id === null)
        throw new AppError('tune_no_policy', `Device '${alert.device}' has no policy to tune`);
      if (alert.gid === null || alert.sid === null)
        throw new AppError('tune_no_signature', 'The alert names no signature');
      const policy = await policies.get(principal, alert.policy_id);
      if (!policy.can_edit)
        throw new AppError(
          'tune_policy_restricted',
          `Policy '${policy.name}' is restricted to its editors`,
        );
      const signature = `${alert.gid}:${alert.sid}`;
      let msg: string;
      if (action === 'disable_rule') {
        if (!alert.rule)
          throw new AppError(
            'tune_rule_unknown',
            `Rule ${signature} is not among this console's rules`,
          );
        const ruleId = alert.rule.id;
        if (policy.overrides.some((o) => o.rule_id === ruleId && o.action === 'disable'))
          throw new AppError(
            'tune_rule_already_disabled',
            `Rule ${signature} is already disabled in policy '${policy.name}'`,
          );
        const overrides = [
          ...policy.overrides.filter((o) => o.rule_id !== ruleId),
          { rule_id: ruleId, action: 'disable' as const },
        ];
        await policies.update(principal, policy.id, { overrides });
        msg = `Rule ${signature} disabled in policy '${policy.name}'`;
      } else {
        const source = alert.src_ip;
        if (!source) throw new AppError('tune_no_source', 'The alert has no source address');
        const exists = policy.thresholds.some(
          (t) =>
            t.kind === 'suppress' && t.gid === alert.gid && t.sid === alert.sid && t.ip === source,
        );
        if (exists)
          throw new AppError(
            'tune_source_already_suppressed',
            `Alerts of ${signature} from ${source} are already suppressed in policy '${policy.name}'`,
          );
        const suppress = {
          kind: 'suppress' as const,
          gid: alert.gid,
          sid: alert.sid,
          track: 'by_src' as const,
          ip: source,
          comment: `from alert ${alert.id} by ${principal.email}`,
        };
        await policies.update(principal, policy.id, {
          thresholds: [...policy.thresholds, suppress],
        });
        msg = `Alerts of ${signature} from ${source} suppressed in policy '${policy.name}'`;
      }
      const updated = await policies.get(principal, policy.id);
      return { policy_id: policy.id, policy_version: updated.version, msg };
    },
  };
}
