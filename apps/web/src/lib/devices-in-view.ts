import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { Device, ListResponse } from '@palisade/contract';
import { call, http } from './api-client';

/** The server's filter takes 1000 characters: past this many ids, the whole list is read. */
const MAX_IDS_TEXT = 900;

/** Refreshes started per list: an answer older than one already merged is dropped. */
const started = new Map<string, number>();
const merged = new Map<string, number>();

/**
 * Reads again only the devices a screen shows (the page in view, by `id:` filter) and merges
 * them into the list cached at `queryKey`; the list's order and membership stay as last read
 * whole (a device added or removed elsewhere shows at the list's own next full read). A failed
 * read changes nothing: the next event or full read makes up for it.
 */
export async function refreshDevicesInView(
  client: QueryClient,
  queryKey: QueryKey,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  const filter = `id:${ids.join('|')}`;
  if (filter.length > MAX_IDS_TEXT) {
    await client.invalidateQueries({ queryKey, exact: true });
    return;
  }
  const key = JSON.stringify(queryKey);
  const seq = (started.get(key) ?? 0) + 1;
  started.set(key, seq);
  let fresh: ListResponse<Device>;
  try {
    fresh = await call(() =>
      http
        .get('devices/', { searchParams: { limit: String(ids.length), offset: '0', filter } })
        .json<ListResponse<Device>>(),
    );
  } catch {
    return;
  }
  if ((merged.get(key) ?? 0) > seq) return;
  merged.set(key, seq);
  const byId = new Map(fresh.data.map((device) => [device.id, device]));
  client.setQueryData<ListResponse<Device>>(queryKey, (list) =>
    list === undefined
      ? list
      : { ...list, data: list.data.map((device) => byId.get(device.id) ?? device) },
  );
}
