import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Device } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { monitoredDevicesKey } from './list-devices';

/** GET /devices/{id} : the selected device's status, versions and latest metrics. */
export const monitoredDeviceQueryOptions = (deviceId: number) =>
  queryOptions({
    queryKey: [...monitoredDevicesKey, 'one', deviceId],
    queryFn: ({ signal }) => call(() => http.get(`devices/${deviceId}`, { signal }).json<Device>()),
  });

export const useMonitoredDevice = (deviceId: number) =>
  useQuery(monitoredDeviceQueryOptions(deviceId));
