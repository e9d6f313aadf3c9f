import type {
  JumpedRule,
  NoisyRule,
  RuleActivity,
  RuleActivityQuery,
  RuleAnalytics,
  RuleAnalyticsQuery,
  SilentRules,
  SilentRulesQuery,
} from '@palisade/contract';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { notFound } from '../../lib/app-error.js';
import type { Principal } from '../../plugins/auth.js';
import { rulesRunBy } from '../policies/policies.service.js';
import {
  ruleAnalyticsRepository as repo,
  type DailyRow,
  type RuleKey,
} from './rule-analytics.repository.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** A rule "jumped" when its share of the last day is this many times its share before. */
export const JUMP_FACTOR = 3;
/** …and it raised at least this many alerts on the last day (a few alerts are no trend). */
export const JUMP_MIN_ALERTS = 10;

/** The first UTC day of a window of `days` days ending today. */
function windowStart(days: number, now = new Date()): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS);
}

const dayText = (date: Date) => date.toISOString().slice(0, 10);
const keyOf = (rule: RuleKey) => `${rule.gid ?? -1}:${rule.sid ?? -1}`;
const asKey = (rule: { gid: number | null; sid: number | string | null }): RuleKey => ({
  gid: rule.gid,
  sid: rule.sid === null ? null : Number(rule.sid),
});

/** Per-day series of `days` entries from `since`, zeros where nothing fired. */
function series(days: number, since: Date, rows: readonly { day: string; count: number }[]) {
  const counts = new Array<number>(days).fill(0);
  for (const row of rows) {
    const index = Math.round((Date.parse(`${row.day}T00:00:00Z`) - since.getTime()) / DAY_MS);
    if (index >= 0 && index < days) counts[index] = (counts[index] ?? 0) + row.count;
  }
  return counts;
}

/**
 * Rule analytics (issue 20): the noisiest rules, rules whose share jumped against their own
 * baseline, enabled rules that never fire, and one rule's activity. Any member may read them;
 * every read is scoped by the caller's organization.
 */
export function createRuleAnalyticsService(db: Database) {
  return {
    async overview(
      principal: Principal,
      query: z.output<typeof RuleAnalyticsQuery>,
    ): Promise<RuleAnalytics> {
      const orgId = principal.orgId;
      const since = windowStart(query.days);
      const window = { since, deviceId: query.device_id, limit: query.limit };
      const top = await repo.noisiest(db, orgId, window);
      const daily = await repo.daily(db, orgId, window, top.map(asKey));
      const byRule = new Map<string, DailyRow[]>();
      for (const row of daily) {
        const key = keyOf(asKey(row));
        byRule.set(key, [...(byRule.get(key) ?? []), row]);
      }
      const total = top[0]?.total ?? 0;
      const noisiest: NoisyRule[] = top.map((row) => {
        const key = asKey(row);
        return {
          ...key,
          msg: row.msg,
          count: row.count,
          share: total === 0 ? 0 : row.count / total,
          devices: row.devices,
          daily: series(query.days, since, byRule.get(keyOf(key)) ?? []),
          last_seen: row.last_seen.toISOString(),
        };
      });
      return {
        days: query.days,
        since: dayText(since),
        total,
        noisiest,
        jumped: await jumped(principal.orgId, query, since),
      };
    },

    async silent(
      principal: Principal,
      policyId: number,
      query: z.output<typeof SilentRulesQuery>,
    ): Promise<SilentRules> {
      const running = await rulesRunBy(db, principal.orgId, policyId);
      if (!running) throw notFound('Policy');
      const since = windowStart(query.days);
      const fired = new Set(
        (await repo.firedOn(db, principal.orgId, since, running.deviceIds)).map(keyOf),
      );
      const silent = running.rules
        .filter((rule) => !fired.has(keyOf(rule)))
        .sort((a, b) => a.sid - b.sid || a.gid - b.gid);
      return {
        policy_id: policyId,
        days: query.days,
        enabled: running.rules.length,
        devices: running.deviceIds.length,
        recordsTotal: silent.length,
        data: silent.slice(query.offset, query.offset + query.limit),
      };
    },

    async rule(
      principal: Principal,
      rule: { gid: number; sid: number },
      query: z.output<typeof RuleActivityQuery>,
    ): Promise<RuleActivity> {
      const since = windowStart(query.days);
      const window = { since, deviceId: query.device_id };
      const [rows, span] = await Promise.all([
        repo.ruleByDeviceDay(db, principal.orgId, window, rule),
        repo.ruleSpan(db, principal.orgId, rule),
      ]);
      const devices = new Map<number, RuleActivity['devices'][number]>();
      for (const row of rows) {
        const seen = devices.get(row.device_id);
        const last = row.last_seen.toISOString();
        if (!seen) {
          devices.set(row.device_id, {
            device_id: row.device_id,
            device: row.device,
            count: row.count,
            last_seen: last,
          });
        } else {
          seen.count += row.count;
          if (last > seen.last_seen) seen.last_seen = last;
        }
      }
      return {
        ...rule,
        msg: span.msg,
        days: query.days,
        since: dayText(since),
        count: rows.reduce((sum, row) => sum + row.count, 0),
        daily: series(query.days, since, rows),
        first_seen: span.first_seen?.toISOString() ?? null,
        last_seen: span.last_seen?.toISOString() ?? null,
        devices: [...devices.values()].sort(
          (a, b) => b.count - a.count || a.device.localeCompare(b.device),
        ),
      };
    },
  };

  /**
   * Rules whose share of the last 24 hours is JUMP_FACTOR times their share of the window's
   * earlier days, or that fired in the last 24 hours only; none without earlier alerts.
   */
  async function jumped(
    orgId: number,
    query: z.output<typeof RuleAnalyticsQuery>,
    since: Date,
  ): Promise<JumpedRule[]> {
    const recentFrom = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 23 * HOUR_MS);
    const baselineDays = (recentFrom.getTime() - since.getTime()) / DAY_MS;
    if (baselineDays <= 0) return [];
    const rows = await repo.recentAndBefore(db, orgId, {
      since,
      deviceId: query.device_id,
      recentFrom,
    });
    const recentTotal = rows.reduce((sum, row) => sum + row.recent, 0);
    const beforeTotal = rows.reduce((sum, row) => sum + row.before, 0);
    if (recentTotal === 0 || beforeTotal === 0) return [];
    const found: JumpedRule[] = [];
    for (const row of rows) {
      if (row.recent < JUMP_MIN_ALERTS) continue;
      const recentShare = row.recent / recentTotal;
      const baselineShare = row.before / beforeTotal;
      if (row.before > 0 && recentShare < JUMP_FACTOR * baselineShare) continue;
      found.push({
        gid: row.gid,
        sid: row.sid,
        msg: row.msg,
        recent: row.recent,
        recent_share: recentShare,
        baseline_per_day: row.before / baselineDays,
        baseline_share: baselineShare,
        factor: row.before === 0 ? null : recentShare / baselineShare,
      });
    }
    const rank = (rule: JumpedRule) => rule.factor ?? Number.POSITIVE_INFINITY;
    return found.sort((a, b) => rank(b) - rank(a) || b.recent - a.recent).slice(0, query.limit);
  }
}
