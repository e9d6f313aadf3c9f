import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Device, DeviceUpdate, DeviceWrite, ListResponse } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';
import { devicesListKey, mergeDevice } from './list-devices';

export type DeviceSave =
  | { id?: undefined; body: z.input<typeof DeviceWrite> }
  | { id: number; body: z.input<typeof DeviceUpdate> };

/** POST /devices/ (201) or PUT /devices/{id} (what is given replaces; a password rotates). */
export function useSaveDevice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (save: DeviceSave) =>
      call(() =>
        save.id === undefined
          ? http.post('devices/', { json: save.body }).json<Device>()
          : http.put(`devices/${save.id}`, { json: save.body }).json<Device>(),
      ),
    onSuccess: async (device) => {
      // Merged by id at once (spec §4); then read again, since the server filters and sorts.
      client.setQueriesData<ListResponse<Device>>({ queryKey: devicesListKey }, (list) =>
        mergeDevice(list, device),
      );
      await client.invalidateQueries({ queryKey: devicesListKey });
    },
  });
}
