import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceLog } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';
import { monitoringKey } from './keys';

export type DeviceLogData = z.infer<typeof DeviceLog>;
export type DeviceLogLine = DeviceLogData['data'][number];

/** GET /devicelog/{id} : the agent's latest log lines. */
export const deviceLogQueryOptions = (deviceId: number) =>
  queryOptions({
    queryKey: [...monitoringKey, 'log', deviceId],
    queryFn: ({ signal }) =>
      call(() => http.get(`devicelog/${deviceId}`, { signal }).json<DeviceLogData>()),
  });

export const useDeviceLog = (deviceId: number) => useQuery(deviceLogQueryOptions(deviceId));
