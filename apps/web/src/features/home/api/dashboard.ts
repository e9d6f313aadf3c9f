import { queryOptions } from '@tanstack/react-query';
import type { AlertSummary, DeviceSummary, ListResponse, RuleSource } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';

/** Everything the dashboard reads: refreshed together when the live channel speaks. */
export const dashboardKey = ['dashboard'] as const;

const DAY_MS = 86_400_000;

/** GET /alerts/summary: the last 24 hours in 48 half-hour buckets, top 10 of each list. */
export const alertSummaryQueryOptions = queryOptions({
  queryKey: [...dashboardKey, 'alerts'],
  queryFn: ({ signal }) =>
    call(() =>
      http
        .get('alerts/summary', {
          searchParams: {
            since: new Date(Date.now() - DAY_MS).toISOString(),
            buckets: '48',
            top: '10',
          },
          signal,
        })
        .json<AlertSummary>(),
    ),
});

/** Devices the dashboard names under each figure (the count is the whole fleet's). */
export const DEVICES_NAMED = 5;

/**
 * GET /devices/summary: the fleet's problem counts and a few devices of each, counted by the
 * server (the fleet itself is never read here: this is asked again on every device event).
 */
export const fleetQueryOptions = queryOptions({
  queryKey: [...dashboardKey, 'devices'],
  queryFn: ({ signal }) =>
    call(() =>
      http
        .get('devices/summary', { searchParams: { named: String(DEVICES_NAMED) }, signal })
        .json<DeviceSummary>(),
    ),
});

/** Failed sources the dashboard lists (the rest are counted). */
export const FAILED_SOURCES_SHOWN = 10;

/** GET /rulesources/?filter=status:failed: the sources whose last update failed, by name. */
export const ruleSourcesQueryOptions = queryOptions({
  queryKey: [...dashboardKey, 'rule-sources'],
  queryFn: ({ signal }) =>
    call(() =>
      http
        .get('rulesources/', {
          searchParams: {
            limit: String(FAILED_SOURCES_SHOWN),
            offset: '0',
            sortBy: 'name',
            filter: 'status:failed',
          },
          signal,
        })
        .json<ListResponse<RuleSource>>(),
    ),
});
