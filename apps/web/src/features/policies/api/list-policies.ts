import { queryOptions } from '@tanstack/react-query';
import type { ListResponse, Policy } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';

/** Spec §9: policies are fetched at once, limit 999999 offset 0. */
export const POLICIES_LIMIT = 999_999;

export const policiesListKey = ['policies', 'list'] as const;

/** GET /policies/?limit=999999&offset=0; searched and sorted in the browser. */
export const policiesListQueryOptions = queryOptions({
  queryKey: policiesListKey,
  queryFn: ({ signal }) =>
    call(() =>
      http
        .get('policies/', {
          searchParams: {
            limit: String(POLICIES_LIMIT),
            offset: '0',
            sortBy: 'name',
            sortDesc: 'false',
          },
          signal,
        })
        .json<ListResponse<Policy>>(),
    ),
});

/** Merges a saved policy into the loaded list by id (spec §4). */
export function mergePolicy(
  list: ListResponse<Policy> | undefined,
  policy: Policy,
): ListResponse<Policy> | undefined {
  if (list === undefined) return list;
  const exists = list.data.some((p) => p.id === policy.id);
  return exists
    ? { ...list, data: list.data.map((p) => (p.id === policy.id ? policy : p)) }
    : { data: [...list.data, policy], recordsTotal: list.recordsTotal + 1 };
}

/** Removes a deleted policy from the loaded list (spec §4). */
export function dropPolicy(
  list: ListResponse<Policy> | undefined,
  id: number,
): ListResponse<Policy> | undefined {
  if (list === undefined) return list;
  const data = list.data.filter((p) => p.id !== id);
  return { data, recordsTotal: list.recordsTotal - (list.data.length - data.length) };
}
