import { queryOptions } from '@tanstack/react-query';
import type { AlertView, ListResponse } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';

/** GET /alertviews/: the caller's own views and the organization's shared ones, by name. */
export const alertViewsQueryOptions = queryOptions({
  queryKey: ['alertviews'],
  queryFn: ({ signal }) =>
    call(() =>
      http
        .get('alertviews/', { signal, searchParams: { limit: 1000 } })
        .json<ListResponse<AlertView>>(),
    ),
});
