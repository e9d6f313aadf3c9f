import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceMonitor } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';
import { monitoringKey } from './keys';

export type DeviceMonitorData = z.infer<typeof DeviceMonitor>;
export type MetricSample = DeviceMonitorData['data'][number];

/**
 * Samples asked for: the server returns the newest `limit` of the window, so the limit must
 * cover the whole window. Heartbeats come every 30 s by default; this allows one per 5 s,
 * within the API's maximum of 100,000.
 */
export const monitorLimit = (windowMs: number) => Math.min(100_000, Math.ceil(windowMs / 5000));

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
              limit: String(monitorLimit(windowMs)),
            },
            signal,
          })
          .json<DeviceMonitorData>(),
      ),
    placeholderData: keepPreviousData,
  });

export const useDeviceMonitor = (deviceId: number, windowMs: number) =>
  useQuery(deviceMonitorQueryOptions(deviceId, windowMs));
