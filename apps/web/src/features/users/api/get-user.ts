import { queryOptions } from '@tanstack/react-query';
import type { ListResponse, User } from '@palisade/contract';
import { ALL_LIMIT } from '../../../components/data-table/list-params';
import { ApiError, call, http, toApiError } from '../../../lib/api-client';
import { usersListKey } from './list-users';

async function findUser(id: number, signal: AbortSignal): Promise<User> {
  try {
    const byFilter = await http
      .get('users/', { searchParams: { limit: '10', offset: '0', filter: `id:${id}` }, signal })
      .json<ListResponse<User>>();
    const hit = byFilter.data.find((user) => user.id === id);
    if (hit !== undefined) return hit;
  } catch (error) {
    // A server without an id filter answers 422: look through the whole list once instead.
    const failure = await toApiError(error);
    if (failure.status !== 422) throw failure;
  }
  const all = await http
    .get('users/', { searchParams: { limit: String(ALL_LIMIT), offset: '0' }, signal })
    .json<ListResponse<User>>();
  const found = all.data.find((user) => user.id === id);
  if (found === undefined) throw new ApiError(404, undefined, 'not_found');
  return found;
}

/** One user, read through GET /users/ (the API has no single-user read). */
export const userQueryOptions = (id: number) =>
  queryOptions({
    queryKey: [...usersListKey, 'one', id],
    queryFn: ({ signal }) => call(() => findUser(id, signal)),
  });
