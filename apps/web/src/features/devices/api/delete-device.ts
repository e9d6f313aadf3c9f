import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageResponse } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { devicesListKey } from './list-devices';

/** DELETE /devices/{id}; the whole list is reloaded afterwards (spec §4). */
export function useDeleteDevice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(() => http.delete(`devices/${id}`).json<MessageResponse>()),
    onSuccess: () => client.invalidateQueries({ queryKey: devicesListKey }),
  });
}
