import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceMonitor } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';
import { monitoringKey } from './keys';

export type DeviceMonitorData = z.infer<typeof DeviceMonitor>;
export type MetricSample = DeviceMonitorData['data'][number];

/**
 * GET /devicemonitor/{id}?since=<ISO> : the window's metrics, oldest first, in at most
 * MONITOR_MAX_POINTS points (the raw samples, or bucket averages on long windows).
 */
export const deviceMonitorQueryOptions = (deviceId: number, windowMs: number) =>
  queryOptions({
    queryKey: [...monitoringKey, 'monitor', deviceId, windowMs],
    queryFn: ({ signal }) =>
      call(() =>
        http
          .get(`devicemonitor/${deviceId}`, {
            searchParams: { since: new Date(Date.now() - windowMs).toISOString() },
            signal,
          })
          .json<DeviceMonitorData>(),
      ),
    placeholderData: keepPreviousData,
  });

export const useDeviceMonitor = (deviceId: number, windowMs: number) =>
  useQuery(deviceMonitorQueryOptions(deviceId, windowMs));
