import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AlertBulk, AlertBulkResult } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';
import { alertsKey } from './keys';

export type AlertBulkRequest = z.input<typeof AlertBulk>;
export type AlertBulkAnswer = z.infer<typeof AlertBulkResult>;

/** POST /alerts/bulk: every alert matching the filter (Administrator, Operator). */
const postBulk = (body: AlertBulkRequest) =>
  call(() => http.post('alerts/bulk', { json: body }).json<AlertBulkAnswer>());

/** The count a bulk action would change, asked before the user confirms (changes nothing). */
export function useBulkAlertsCount() {
  return useMutation({
    mutationFn: (body: AlertBulkRequest) => postBulk({ ...body, dry_run: true }),
  });
}

export function useBulkAlerts() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AlertBulkRequest) => postBulk({ ...body, dry_run: false }),
    onSuccess: () => client.invalidateQueries({ queryKey: alertsKey }),
  });
}
