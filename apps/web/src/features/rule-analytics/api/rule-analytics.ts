import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AlertPage, RuleActivity, RuleAnalytics, SilentRules } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';

export const ruleAnalyticsKey = ['rule-analytics'] as const;

export type { DayWindow as WindowDays } from '../../../components/page/DaysToggle';

/** GET /ruleanalytics/?days&device_id : noisiest and jumped rules of the window. */
export const ruleAnalyticsQueryOptions = (days: number, deviceId: number | null) =>
  queryOptions({
    queryKey: [...ruleAnalyticsKey, 'overview', days, deviceId],
    queryFn: ({ signal }) =>
      call(() =>
        http
          .get('ruleanalytics/', {
            searchParams: {
              days: String(days),
              ...(deviceId === null ? {} : { device_id: String(deviceId) }),
            },
            signal,
          })
          .json<RuleAnalytics>(),
      ),
    placeholderData: keepPreviousData,
  });

/** GET /ruleanalytics/silent/{policyId} : the policy's enabled rules that never fired. */
export const silentRulesQueryOptions = (
  policyId: number,
  days: number,
  page: { limit: number; offset: number },
) =>
  queryOptions({
    queryKey: [...ruleAnalyticsKey, 'silent', policyId, days, page],
    queryFn: ({ signal }) =>
      call(() =>
        http
          .get(`ruleanalytics/silent/${policyId}`, {
            searchParams: {
              days: String(days),
              limit: String(page.limit),
              offset: String(page.offset),
            },
            signal,
          })
          .json<SilentRules>(),
      ),
    placeholderData: keepPreviousData,
  });

/** GET /ruleanalytics/{gid}/{sid}?days : one rule's days and devices. */
export const ruleActivityQueryOptions = (rule: { gid: number; sid: number }, days: number) =>
  queryOptions({
    queryKey: [...ruleAnalyticsKey, 'rule', rule.gid, rule.sid, days],
    queryFn: ({ signal }) =>
      call(() =>
        http
          .get(`ruleanalytics/${rule.gid}/${rule.sid}`, {
            searchParams: { days: String(days) },
            signal,
          })
          .json<RuleActivity>(),
      ),
  });

/** The newest stored alert of a signature, whose drawer offers the backtested tuning. */
export async function newestAlertOf(sid: number): Promise<number | null> {
  const page = await call(() =>
    http
      .get('alerts/', { searchParams: { signature: String(sid), limit: '1', count_limit: '0' } })
      .json<z.infer<typeof AlertPage>>(),
  );
  return page.data[0]?.id ?? null;
}
