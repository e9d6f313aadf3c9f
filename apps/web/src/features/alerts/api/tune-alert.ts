import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AlertTune, AlertTuneResult, ChangePreview } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';
import { alertsKey } from './keys';

export type TuneAction = z.infer<typeof AlertTune>['action'];
export type TuneResult = z.infer<typeof AlertTuneResult>;

/**
 * POST /alerts/{id}/tune {action}: disable the alert's rule or suppress its source in the
 * device's policy (Administrator, Operator); the policy's new version reaches the device.
 */
export function useTuneAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: TuneAction }) =>
      call(() => http.post(`alerts/${id}/tune`, { json: { action } }).json<TuneResult>()),
    onSuccess: () => client.invalidateQueries({ queryKey: alertsKey }),
  });
}

/** POST /alerts/{id}/tune/preview: what the tuning would send to the devices of its policy. */
export const previewTune = (id: number, action: TuneAction): Promise<ChangePreview> =>
  call(() => http.post(`alerts/${id}/tune/preview`, { json: { action } }).json());
