import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call, http } from '../../../lib/api-client';
import { devicesListKey } from './list-devices';
import type { DeviceUpgradeRequest, DeviceUpgradeResult } from '@palisade/contract';

/** POST /devices/upgrade: the given devices (or every outdated one) fetch the server's agent. */
export function useUpgradeDevices() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: DeviceUpgradeRequest) =>
      call(() => http.post('devices/upgrade', { json: request }).json<DeviceUpgradeResult>()),
    onSuccess: () => client.invalidateQueries({ queryKey: devicesListKey }),
  });
}
