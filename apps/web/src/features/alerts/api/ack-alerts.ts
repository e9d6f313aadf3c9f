import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageResponse } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { alertsKey } from './keys';

/** POST /alerts/ack {ids, acknowledged} (Administrator, Operator). */
export function useAcknowledgeAlerts() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { ids: number[]; acknowledged: boolean }) =>
      call(() => http.post('alerts/ack', { json: body }).json<MessageResponse>()),
    onSuccess: () => client.invalidateQueries({ queryKey: alertsKey }),
  });
}
