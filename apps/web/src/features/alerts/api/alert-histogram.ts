import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AlertFilters, AlertHistogram } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';
import { filterParams } from '../filters';
import { alertsKey } from './keys';

export type AlertHistogramData = z.infer<typeof AlertHistogram>;

export const HISTOGRAM_BUCKETS = 60;

/** GET /alerts/histogram?…filters&buckets=60 : alert counts over time. */
export const alertHistogramQueryOptions = (filters: AlertFilters) =>
  queryOptions({
    queryKey: [...alertsKey, 'histogram', filters],
    queryFn: ({ signal }) =>
      call(() =>
        http
          .get('alerts/histogram', {
            searchParams: { ...filterParams(filters), buckets: String(HISTOGRAM_BUCKETS) },
            signal,
          })
          .json<AlertHistogramData>(),
      ),
    placeholderData: keepPreviousData,
  });
