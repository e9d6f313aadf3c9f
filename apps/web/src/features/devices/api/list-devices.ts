import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Device, ListResponse } from '@palisade/contract';
import type { SortItem } from '../../../components/data-table/list-params';
import { call, http } from '../../../lib/api-client';

/** Spec §9: devices are fetched with limit 99999, offset 0. */
export const DEVICES_LIMIT = 99_999;

export const devicesListKey = ['devices', 'list'] as const;

export interface DevicesQuery {
  /** Free text, or `field:value` terms (name, city, online, update_pending, error, health, …). */
  filter: string;
  sorting: SortItem[];
}

/** GET /devices/?limit=99999&offset=0[&sortBy&sortDesc&filter]: searched and sorted by the server. */
export const devicesListQueryOptions = ({ filter, sorting }: DevicesQuery) =>
  queryOptions({
    queryKey: [...devicesListKey, filter.trim(), sorting],
    queryFn: ({ signal }) => {
      const searchParams: Record<string, string> = { limit: String(DEVICES_LIMIT), offset: '0' };
      if (sorting.length > 0) {
        searchParams.sortBy = sorting.map((s) => s.id).join(',');
        searchParams.sortDesc = sorting.map((s) => String(s.desc)).join(',');
      }
      if (filter.trim() !== '') searchParams.filter = filter.trim();
      return call(() =>
        http.get('devices/', { searchParams, signal }).json<ListResponse<Device>>(),
      );
    },
    placeholderData: keepPreviousData,
  });

/** Every device by name: for pickers and the firewall assignments. */
export const allDevicesQueryOptions = devicesListQueryOptions({
  filter: '',
  sorting: [{ id: 'name', desc: false }],
});

/** Merges a saved device into a loaded list by id (spec §4); a new one joins the end. */
export function mergeDevice(
  list: ListResponse<Device> | undefined,
  device: Device,
): ListResponse<Device> | undefined {
  if (list === undefined) return list;
  const exists = list.data.some((d) => d.id === device.id);
  return exists
    ? { ...list, data: list.data.map((d) => (d.id === device.id ? device : d)) }
    : { data: [...list.data, device], recordsTotal: list.recordsTotal + 1 };
}
