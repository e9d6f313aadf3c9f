import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Device, DeviceUpdate, DeviceWrite } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';
import { devicesListKey } from './list-devices';

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
    // Lists are filtered and sorted by the server, so every loaded one is fetched again.
    onSuccess: () => client.invalidateQueries({ queryKey: devicesListKey }),
  });
}
