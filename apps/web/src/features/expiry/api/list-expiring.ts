import { queryOptions } from '@tanstack/react-query';
import type { ExpiringList } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';

export const expiringKey = (days: number) => ['expiring', days] as const;

/** GET /expiring?days=N: overrides, thresholds and firewall rules that expire soon. */
export const expiringQueryOptions = (days: number) =>
  queryOptions({
    queryKey: expiringKey(days),
    queryFn: ({ signal }) =>
      call(() => http.get('expiring', { searchParams: { days }, signal }).json<ExpiringList>()),
    staleTime: 0,
  });
