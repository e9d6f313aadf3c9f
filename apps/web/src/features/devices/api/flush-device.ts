import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageResponse } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { devicesListKey } from './list-devices';

/** GET /deviceupdate/{id}: the device re-pulls and re-applies everything (200 on success). */
export function useFlushDevice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(() => http.get(`deviceupdate/${id}`).json<MessageResponse>()),
    onSuccess: () => client.invalidateQueries({ queryKey: devicesListKey }),
  });
}
