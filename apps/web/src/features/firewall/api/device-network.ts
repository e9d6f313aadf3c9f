import { queryOptions } from '@tanstack/react-query';
import type { DeviceNetwork } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';

export const deviceNetworkKey = (id: number) => ['devices', 'network', id] as const;

/** GET /devices/{id}/network: L3 mode, routes, source NAT and port forwards. */
export const deviceNetworkQueryOptions = (id: number) =>
  queryOptions({
    queryKey: deviceNetworkKey(id),
    queryFn: ({ signal }) =>
      call(() => http.get(`devices/${id}/network`, { signal }).json<DeviceNetwork>()),
    staleTime: 0,
  });
