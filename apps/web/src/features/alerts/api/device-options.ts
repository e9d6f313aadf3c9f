import { queryOptions } from '@tanstack/react-query';
import type { Device, ListResponse } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';

/** The device filter's choices: every device (spec §9: limit 99999, offset 0), by name. */
export const alertDeviceOptionsQueryOptions = queryOptions({
  queryKey: ['alert-filter-devices'],
  queryFn: ({ signal }) =>
    call(() =>
      http
        .get('devices/', {
          searchParams: { limit: '99999', offset: '0', sortBy: 'name', sortDesc: 'false' },
          signal,
        })
        .json<ListResponse<Device>>(),
    ),
  select: (list) => list.data.map((d) => ({ id: d.id, name: d.name })),
  staleTime: 60_000,
});
