import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Device } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { monitoringKey } from './keys';

/** The selected device's queries (apart from the list's, whose search may be any text). */
export const monitoredDeviceKey = [...monitoringKey, 'device'] as const;

/** GET /devices/{id} : the selected device's status, versions and latest metrics. */
export const monitoredDeviceQueryOptions = (deviceId: number) =>
  queryOptions({
    queryKey: [...monitoredDeviceKey, deviceId],
    queryFn: ({ signal }) => call(() => http.get(`devices/${deviceId}`, { signal }).json<Device>()),
  });

export const useMonitoredDevice = (deviceId: number) =>
  useQuery(monitoredDeviceQueryOptions(deviceId));
