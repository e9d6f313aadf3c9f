import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeviceNetwork, DeviceNetworkInput } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { deviceFirewallKey } from './device-firewall';

const deviceNetworkKey = (id: number) => ['devices', 'network', id] as const;

/** GET /devices/{id}/network: L3 mode, routes, source NAT and port forwards. */
export const deviceNetworkQueryOptions = (id: number) =>
  queryOptions({
    queryKey: deviceNetworkKey(id),
    queryFn: ({ signal }) =>
      call(() => http.get(`devices/${id}/network`, { signal }).json<DeviceNetwork>()),
    staleTime: 0,
  });

/** PUT /devices/{id}/network (422 names the bad route, NAT or forward). */
export function useSaveDeviceNetwork(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DeviceNetworkInput) =>
      call(() => http.put(`devices/${id}/network`, { json: body }).json<DeviceNetwork>()),
    onSuccess: async (network) => {
      client.setQueryData(deviceNetworkQueryOptions(id).queryKey, network);
      await client.invalidateQueries({ queryKey: deviceFirewallKey(id) });
    },
  });
}
