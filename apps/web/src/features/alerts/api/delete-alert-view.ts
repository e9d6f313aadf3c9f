import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageResponse } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { alertViewsQueryOptions } from './list-alert-views';

/** DELETE /alertviews/{id}: the owner's only. */
export function useDeleteAlertView() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(() => http.delete(`alertviews/${id}`).json<MessageResponse>()),
    onSuccess: () => client.invalidateQueries({ queryKey: alertViewsQueryOptions.queryKey }),
  });
}
