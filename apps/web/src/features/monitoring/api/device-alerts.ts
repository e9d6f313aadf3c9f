import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceAlerts } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';
import { monitoringKey } from './keys';

export type DeviceAlertsData = z.infer<typeof DeviceAlerts>;

/** Key of every device's alert table; the live `alerts` event invalidates it. */
export const deviceAlertsKey = [...monitoringKey, 'alerts'] as const;

/** GET /devicelogsnort/{id} : the device's last 100 alerts (spec §9), newest first. */
export const deviceAlertsQueryOptions = (deviceId: number) =>
  queryOptions({
    queryKey: [...deviceAlertsKey, deviceId],
    queryFn: ({ signal }) =>
      call(() => http.get(`devicelogsnort/${deviceId}`, { signal }).json<DeviceAlertsData>()),
  });

export const useDeviceAlerts = (deviceId: number) => useQuery(deviceAlertsQueryOptions(deviceId));
