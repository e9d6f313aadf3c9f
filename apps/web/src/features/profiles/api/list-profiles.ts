import { queryOptions } from '@tanstack/react-query';
import type { DeviceProfile, ListResponse } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';

/** Spec §9: profiles are fetched at once, limit 99999 offset 0. */
export const PROFILES_LIMIT = 99_999;

export const profilesListKey = ['profiles', 'list'] as const;

/** GET /deviceconfigurationprofiles/?limit=99999&offset=0; searched and sorted in the browser. */
export const profilesListQueryOptions = queryOptions({
  queryKey: profilesListKey,
  // Device counts change with every assignment made elsewhere: read again on each visit.
  staleTime: 0,
  queryFn: ({ signal }) =>
    call(() =>
      http
        .get('deviceconfigurationprofiles/', {
          searchParams: { limit: String(PROFILES_LIMIT), offset: '0' },
          signal,
        })
        .json<ListResponse<DeviceProfile>>(),
    ),
});

/** Merges a saved profile into the loaded list by id (spec §4). */
export function mergeProfile(
  list: ListResponse<DeviceProfile> | undefined,
  profile: DeviceProfile,
): ListResponse<DeviceProfile> | undefined {
  if (list === undefined) return list;
  const exists = list.data.some((p) => p.id === profile.id);
  return exists
    ? { ...list, data: list.data.map((p) => (p.id === profile.id ? profile : p)) }
    : { data: [...list.data, profile], recordsTotal: list.recordsTotal + 1 };
}
