import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeviceNetwork, DeviceNetworkInput } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { deviceFirewallKey } from './device-firewall';
import { deviceNetworkQueryOptions } from './device-network';

/** The routes and NAT, and (Administrators) the override of the lock-out check. */
type NetworkSave = DeviceNetworkInput & { override_lockout?: boolean };

/**
 * PUT /devices/{id}/network (422 names the bad route, NAT or forward, or, with code `lockout`,
 * the route that would carry the connection to the server).
 */
export function useSaveDeviceNetwork(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NetworkSave) =>
      call(() => http.put(`devices/${id}/network`, { json: body }).json<DeviceNetwork>()),
    onSuccess: async (network) => {
      client.setQueryData(deviceNetworkQueryOptions(id).queryKey, network);
      await client.invalidateQueries({ queryKey: deviceFirewallKey(id) });
    },
  });
}
