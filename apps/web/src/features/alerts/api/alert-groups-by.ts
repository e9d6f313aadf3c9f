import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AlertFilters, AlertGrouping, AlertGroupsBy } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';
import { filterParams } from '../filters';
import { alertsKey } from './keys';

export type Grouping = z.infer<typeof AlertGrouping>;
export type AlertGroupsByData = z.infer<typeof AlertGroupsBy>;
export type AlertGroupByRow = AlertGroupsByData['data'][number];

/** Groups shown, the largest first; points of each sparkline. */
export const GROUPS_BY_LIMIT = 200;
export const SPARKLINE_POINTS = 24;

/** GET /alerts/groups/by?by&…filters : groups by source, destination, device or sig → source. */
export const alertGroupsByQueryOptions = (filters: AlertFilters, by: Grouping) =>
  queryOptions({
    queryKey: [...alertsKey, 'groups-by', by, filters],
    queryFn: ({ signal }) =>
      call(() =>
        http
          .get('alerts/groups/by', {
            searchParams: {
              ...filterParams(filters),
              by,
              limit: String(GROUPS_BY_LIMIT),
              buckets: String(SPARKLINE_POINTS),
            },
            signal,
          })
          .json<AlertGroupsByData>(),
      ),
    placeholderData: keepPreviousData,
  });
