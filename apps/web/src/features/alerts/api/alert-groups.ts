import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AlertFilters, AlertGroups } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';
import { filterParams } from '../filters';
import { alertsKey } from './keys';

export type AlertGroupsData = z.infer<typeof AlertGroups>;
export type SignatureGroup = AlertGroupsData['data'][number];

/** Signatures shown in the grouped view, the most frequent first. */
export const GROUPS_LIMIT = 1000;

/** GET /alerts/groups?…filters&limit : alerts grouped by signature with counts. */
export const alertGroupsQueryOptions = (filters: AlertFilters) =>
  queryOptions({
    queryKey: [...alertsKey, 'groups', filters],
    queryFn: ({ signal }) =>
      call(() =>
        http
          .get('alerts/groups', {
            searchParams: { ...filterParams(filters), limit: String(GROUPS_LIMIT) },
            signal,
          })
          .json<AlertGroupsData>(),
      ),
    placeholderData: keepPreviousData,
  });
