import type {
  Alert,
  AlertBulk,
  AlertDetail,
  AlertExportQuery,
  AlertFilters,
  AlertGroupsByQuery,
  AlertTune,
} from '@palisade/contract';
import type { z } from 'zod';
import type { Database, Queryable } from '../../db/client.js';
import { isoFromEpochMicros } from '../../db/microsecond-time.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { csvRow } from '../../lib/csv.js';
import { assertRole, EDITOR_ROLES, type Principal } from '../../plugins/auth.js';
import { notifyConsole } from '../../plugins/console-events.js';
import { recordAudit, userActor } from '../audit/audit.service.js';
import { createPoliciesService } from '../policies/policies.service.js';
import { findRuleBySignature } from '../rules/rules.service.js';
import { cursorOf, isSignatureText, type ResolvedAlertFilters } from './alert-filters.js';
import {
  alertRollupRepository as rollupRepo,
  rollupAnswers,
  type RollupBatch,
} from './alert-rollup.repository.js';
import { alertRetentionRepository } from './alert-retention.repository.js';
import { alertGroupingRepository as groupingRepo } from './alert-grouping.repository.js';
import { alertTriageRepository as triageRepo } from './alert-triage.repository.js';
import { alertComments } from './alert-triage.service.js';
import { alertsRepository as repo, type AlertRow } from './alerts.repository.js';
import { firedUnder } from './rule-change.js';

/** Columns of the CSV export, in order (the NDJSON export writes whole alerts). */
const CSV_COLUMNS = [
  'id',
  'time',
  'device_id',
  'device',
  'gid',
  'sid',
  'rev',
  'msg',
  'category',
  'severity',
  'action',
  'proto',
  'app_proto',
  'src_ip',
  'src_port',
  'dest_ip',
  'dest_port',
  'acknowledged',
  'starred',
] as const satisfies readonly (keyof Alert)[];
const EXPORT_CHUNK = 1000;

/** The audit action and the state recorded for each bulk action. */
const BULK_AUDIT = {
  acknowledge: { action: 'acknowledge', after: { acknowledged: true } },
  reopen: { action: 'acknowledge', after: { acknowledged: false } },
  star: { action: 'star', after: { starred: true } },
  unstar: { action: 'star', after: { starred: false } },
  comment: { action: 'comment', after: {} },
} as const;

const BULK_DONE = {
  acknowledge: 'acknowledged',
  reopen: 'reopened',
  star: 'starred',
  unstar: 'unstarred',
  comment: 'commented',
} as const;

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
  starred: row.starred,
});

/**
 * Keeps the alert rollup and the signature catalogue whole: every way alerts are stored calls
 * this with the same rows, in the transaction that stores them.
 */
export const noteStoredAlerts = (tx: Queryable, batches: readonly RollupBatch[]) =>
  rollupRepo.addBatches(tx, batches);

/** For the canary gate: how many alerts each device raised in its window, by window key. */
export async function countDeviceAlerts(
  db: Queryable,
  windows: readonly { key: string; deviceId: number; since: Date; until: Date }[],
): Promise<Map<string, number>> {
  const rows = await repo.countInWindows(db, windows);
  return new Map(rows.map((row) => [row.key, row.n]));
}

/** Retention's batched deletes of the alerts' tables (plugins/retention.ts). */
export const alertRetention = alertRetentionRepository;

export function createAlertsService(db: Database) {
  const policies = createPoliciesService(db);

  /**
   * A text signature filter is read in the signature catalogue first (one small lookup), so
   * that the alerts are filtered by signature id, not by their messages one by one.
   */
  async function resolve<F extends AlertFilters>(orgId: number, filters: F) {
    if (!isSignatureText(filters.signature)) return filters;
    const match = await repo.signatureMatch(db, orgId, filters.signature);
    return { ...filters, signature_match: match } satisfies ResolvedAlertFilters;
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
          ? await findRuleBySignature(db, principal.orgId, row.gid, Number(row.sid))
          : undefined;
      const [comments, fired] = await Promise.all([
        alertComments(db, principal.orgId, id),
        firedUnder(db, principal.orgId, { ...row, sid: row.sid === null ? null : Number(row.sid) }),
      ]);
      return {
        ...present(row),
        event: row.event,
        comments,
        rule: rule ?? null,
        fired_under: fired,
        acknowledged_at: row.acknowledged_at?.toISOString() ?? null,
        acknowledged_by: row.acknowledged_by,
        policy_id: row.policy_id,
        policy_name: row.policy_name,
        flow_id: row.flow_id,
      };
    },

    /** The drawer's related events: the alert's flow, and its host pair within ±window minutes. */
    async related(principal: Principal, id: number, query: { window: number; limit: number }) {
      const row = await repo.detail(db, principal.orgId, id);
      if (!row) throw notFound('Alert');
      const orgId = principal.orgId;
      const [flow, pair] = await Promise.all([
        row.flow_id === null
          ? []
          : repo.sameFlow(
              db,
              { orgId, id, deviceId: row.device_id, flowId: row.flow_id },
              query.limit,
            ),
        row.src_ip === null || row.dest_ip === null
          ? []
          : repo.sameHostPair(
              db,
              {
                orgId,
                id,
                a: row.src_ip,
                b: row.dest_ip,
                timeUs: row.time_us,
                minutes: query.window,
              },
              query.limit,
            ),
      ]);
      const brief = (r: AlertRow) => {
        const a = present(r);
        return {
          id: a.id,
          time: a.time,
          device: a.device,
          sid: a.sid,
          msg: a.msg,
          severity: a.severity,
          src_ip: a.src_ip,
          src_port: a.src_port,
          dest_ip: a.dest_ip,
          dest_port: a.dest_port,
        };
      };
      return { flow: flow.map(brief), host_pair: pair.map(brief), window: query.window };
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

    /**
     * Every alert the filters match, newest first, as CSV or NDJSON text read a thousand at a
     * time by keyset: memory stays flat however many alerts, and no transaction is held open
     * while the client reads. Cells that look like formulas are prefixed with ' (lib/csv.ts).
     */
    async export(principal: Principal, request: AlertExportQuery) {
      const { format, ...rest } = request;
      const filters = await resolve(principal.orgId, rest);
      const csv = format === 'csv';
      return (async function* chunks() {
        if (csv) yield `${CSV_COLUMNS.join(',')}\r\n`;
        let before: string | undefined;
        for (;;) {
          const rows = await repo.page(db, principal.orgId, filters, EXPORT_CHUNK, before);
          if (rows.length > 0)
            yield rows
              .map(present)
              .map((alert) => (csv ? csvRow(alert, CSV_COLUMNS) : `${JSON.stringify(alert)}\n`))
              .join('');
          const last = rows.at(-1);
          if (rows.length < EXPORT_CHUNK || !last) break;
          before = cursorOf(last);
        }
      })();
    },

    /**
     * Groups by source, destination, device or signature then source, the largest first, each
     * with its first and last alert and a sparkline over the filter's window (or, when the
     * filter leaves a bound open, the matching alerts' own range). Read from the alerts, not
     * the rollup, which holds no addresses.
     */
    async groupsBy(principal: Principal, request: z.output<typeof AlertGroupsByQuery>) {
      const { by, limit, buckets, ...rest } = request;
      const filters = await resolve(principal.orgId, rest);
      const range =
        filters.since && filters.until ? undefined : await repo.range(db, principal.orgId, filters);
      const start = filters.since ? new Date(filters.since) : range?.first;
      // The data's own end is its last alert, which the range must hold (a bound is exclusive).
      const end = filters.until
        ? new Date(filters.until)
        : range?.last && new Date(range.last.getTime() + 1);
      if (!start || !end) return { start: null, interval: 0, data: [] };
      const span = Math.max(0.001, (end.getTime() - start.getTime()) / 1000);
      const seconds = Math.max(1, Math.ceil(span / buckets));
      const used = Math.max(1, Math.min(buckets, Math.ceil(span / seconds)));
      const rows = await groupingRepo.groups(db, principal.orgId, filters, {
        by,
        limit,
        start,
        seconds,
        buckets: used,
      });
      return {
        start: start.toISOString(),
        interval: seconds,
        data: rows.map(({ first_seen_us, last_seen_us, series, sid, ...r }) => ({
          ...r,
          sid: sid === null ? null : Number(sid),
          first_seen: isoFromEpochMicros(first_seen_us),
          last_seen: isoFromEpochMicros(last_seen_us),
          series: series ?? [],
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
        // One record per request with its count; the ids named, the first hundred of them.
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'acknowledge',
          object: { type: 'alert', id: ids.length === 1 ? (ids[0] ?? null) : null, name: null },
          after: { acknowledged, count, ids: ids.slice(0, 100) },
        });
        return count;
      });
      return { msg: `${changed} alert(s) ${acknowledged ? 'acknowledged' : 'reopened'}` };
    },

    /**
     * Acknowledge, reopen, star, unstar or comment every alert matching the filter, in one
     * transaction with one audit record carrying the filter and the count. A dry run answers
     * the count alone and changes nothing.
     */
    async bulk(principal: Principal, request: z.infer<typeof AlertBulk>) {
      assertRole(principal, ...EDITOR_ROLES);
      const filters = await resolve(principal.orgId, request.filter);
      const { action } = request;
      if (request.dry_run) {
        const count = await triageRepo.count(db, principal.orgId, filters, action);
        return { count, dry_run: true, msg: `${count} alert(s) would be ${BULK_DONE[action]}` };
      }
      const count = await db.transaction(async (tx) => {
        const changed = await triageRepo.apply(tx, principal.orgId, filters, {
          action,
          userId: principal.userId,
          ...(request.comment === undefined ? {} : { comment: request.comment }),
        });
        if (changed > 0) await notifyConsole(tx, principal.orgId, 'alerts');
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: BULK_AUDIT[action].action,
          object: { type: 'alert', id: null, name: null },
          after: {
            ...BULK_AUDIT[action].after,
            count: changed,
            filter: request.filter,
            ...(request.comment === undefined ? {} : { comment: request.comment }),
          },
        });
        return changed;
      });
      return { count, dry_run: false, msg: `${count} alert(s) ${BULK_DONE[action]}` };
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
        await policies.update(principal, policy.id, { overrides }, { tunedFrom: alert.id });
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
        await policies.update(
          principal,
          policy.id,
          { thresholds: [...policy.thresholds, suppress] },
          { tunedFrom: alert.id },
        );
        msg = `Alerts of ${signature} from ${source} suppressed in policy '${policy.name}'`;
      }
      const updated = await policies.get(principal, policy.id);
      return { policy_id: policy.id, policy_version: updated.version, msg };
    },
  };
}
