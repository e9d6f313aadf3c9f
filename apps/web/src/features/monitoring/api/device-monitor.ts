import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceMonitor } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';
import { monitoringKey } from './keys';

export type DeviceMonitorData = z.infer<typeof DeviceMonitor>;
export type MetricSample = DeviceMonitorData['data'][number];

/** Samples asked for at most: one per pixel of a wide chart is plenty. */
export const MONITOR_LIMIT = 5000;

/** GET /devicemonitor/{id}?since=<ISO>&limit=N : metric samples, oldest first. */
export const deviceMonitorQueryOptions = (deviceId: number, windowMs: number) =>
  queryOptions({
    queryKey: [...monitoringKey, 'monitor', deviceId, windowMs],
    queryFn: ({ signal }) =>
      call(() =>
        http
          .get(`devicemonitor/${deviceId}`, {
            searchParams: {
              since: new Date(Date.now() - windowMs).toISOString(),
              limit: String(MONITOR_LIMIT),
            },
            signal,
          })
          .json<DeviceMonitorData>(),
      ),
    placeholderData: keepPreviousData,
  });

export const useDeviceMonitor = (deviceId: number, windowMs: number) =>
  useQuery(deviceMonitorQueryOptions(deviceId, windowMs));
