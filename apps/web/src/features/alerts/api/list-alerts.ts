import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AlertFilters, AlertPage } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';
import { filterParams } from '../filters';
import { alertsKey } from './keys';

export type AlertPageData = z.infer<typeof AlertPage>;

/**
 * Count matches exactly up to this many; past it the total is shown as a lower bound ("10,000+",
 * as Kibana's). Counting to 100,000 read 100,000 index entries for every broad filter and set
 * the first page's time on 1,000,000 alerts (bench/alert-list.bench.ts); to 10,000 it is ~20 ms.
 */
export const COUNT_LIMIT = 10_000;

export interface AlertPageRequest {
  filters: AlertFilters;
  /** The previous page's next_cursor; null for the newest page. */
  before: string | null;
  limit: number;
}

/** GET /alerts/?…filters&limit&before&count_limit : newest first, keyset paged. */
export const alertPageQueryOptions = ({ filters, before, limit }: AlertPageRequest) =>
  queryOptions({
    queryKey: [...alertsKey, 'list', filters, before, limit],
    queryFn: ({ signal }) => {
      const searchParams = {
        ...filterParams(filters),
        limit: String(limit),
        count_limit: String(COUNT_LIMIT),
        ...(before === null ? {} : { before }),
      };
      return call(() => http.get('alerts/', { searchParams, signal }).json<AlertPageData>());
    },
    placeholderData: keepPreviousData,
  });
