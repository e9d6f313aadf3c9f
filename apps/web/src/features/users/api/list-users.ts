import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse, User } from '@palisade/contract';
import { toListParams, type TableState } from '../../../components/data-table/list-params';
import { call, http } from '../../../lib/api-client';

/** The key every user list shares; mutations invalidate through it. */
export const usersListKey = ['users', 'list'] as const;

/** GET /users/?limit&offset&sortBy&sortDesc&filter (admin only). */
export const usersListQueryOptions = (state: TableState) =>
  queryOptions({
    queryKey: [...usersListKey, state],
    queryFn: ({ signal }) =>
      call(() =>
        http
          .get('users/', { searchParams: toListParams(state), signal })
          .json<ListResponse<User>>(),
      ),
    placeholderData: keepPreviousData,
  });
