import { queryOptions } from '@tanstack/react-query';
import type { AlertFilters } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { filterParams } from '../filters';
import { alertsKey } from './keys';
import type { AlertPageData } from './list-alerts';

/** Counted exactly up to this many; the banner says "more than" past it. */
export const NEWER_COUNT_LIMIT = 1000;

/** One microsecond after an alert's time (`…12.123456Z` → `…12.123457Z`). */
export function afterMicrosecond(time: string): string {
  const seconds = Date.parse(`${time.slice(0, 19)}Z`) / 1000;
  const micros = Number(time.slice(20, 26)) + 1;
  const whole = seconds + Math.floor(micros / 1_000_000);
  const fraction = String(micros % 1_000_000).padStart(6, '0');
  return `${new Date(whole * 1000).toISOString().slice(0, 19)}.${fraction}Z`;
}

/**
 * GET /alerts/?…filters&since=<after the newest shown>&limit=1 : how many alerts arrived
 * above the list, for its "N new alerts" banner. Without a shown alert it counts them all.
 */
export const newerAlertsQueryOptions = (filters: AlertFilters, newest: string | null) =>
  queryOptions({
    queryKey: [...alertsKey, 'newer', filters, newest],
    queryFn: ({ signal }) => {
      const after = newest === null ? undefined : afterMicrosecond(newest);
      const since =
        after !== undefined && (filters.since === undefined || filters.since < after)
          ? after
          : filters.since;
      const searchParams = {
        ...filterParams({ ...filters, ...(since === undefined ? {} : { since }) }),
        limit: '1',
        count_limit: String(NEWER_COUNT_LIMIT),
      };
      return call(() => http.get('alerts/', { searchParams, signal }).json<AlertPageData>());
    },
    select: (page) => ({ count: page.recordsTotal, exact: page.recordsTotalIsExact }),
  });
