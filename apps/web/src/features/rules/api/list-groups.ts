import { queryOptions } from '@tanstack/react-query';
import type { ListResponse, RuleGroup } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';

/** Spec §9: groups are fetched at once, limit 999999 offset 0. */
export const GROUPS_LIMIT = 999_999;

export const groupsListKey = ['groups', 'list'] as const;

/** GET /groups/?limit=999999&offset=0, sorted by name; searched in the browser. */
export const groupsListQueryOptions = queryOptions({
  queryKey: groupsListKey,
  queryFn: ({ signal }) =>
    call(() =>
      http
        .get('groups/', {
          searchParams: {
            limit: String(GROUPS_LIMIT),
            offset: '0',
            sortBy: 'name',
            sortDesc: 'false',
          },
          signal,
        })
        .json<ListResponse<RuleGroup>>(),
    ),
});
