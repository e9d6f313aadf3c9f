import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Device, ListResponse } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { monitoringKey } from './keys';

/** Spec §9: devices are fetched with limit 99999, offset 0. */
export const DEVICES_LIMIT = 99_999;

export const monitoredDevicesKey = [...monitoringKey, 'devices'] as const;

/** GET /devices/?limit=99999&offset=0&filter=… : the devices list of Monitoring, with metrics. */
export const monitoredDevicesQueryOptions = (search: string) =>
  queryOptions({
    queryKey: [...monitoredDevicesKey, search],
    queryFn: ({ signal }) => {
      const filter = search.replaceAll(',', ' ').trim();
      const searchParams: Record<string, string> = {
        limit: String(DEVICES_LIMIT),
        offset: '0',
        sortBy: 'name',
        sortDesc: 'false',
      };
      if (filter !== '') searchParams.filter = filter;
      return call(() =>
        http.get('devices/', { searchParams, signal }).json<ListResponse<Device>>(),
      );
    },
    placeholderData: keepPreviousData,
  });

/**
 * How often the whole list is read again (devices added or removed elsewhere); the rows in view
 * follow the agents through the live channel.
 */
const REFRESH_MS = 15_000;

export const useMonitoredDevices = (search: string) =>
  useQuery({ ...monitoredDevicesQueryOptions(search), refetchInterval: REFRESH_MS });
