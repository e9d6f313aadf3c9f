import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AlertView, AlertViewUpdate, AlertViewWrite } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { alertViewsQueryOptions } from './list-alert-views';

/** POST /alertviews/ (a new view), or PUT /alertviews/{id} (the owner's rename or sharing). */
export function useSaveAlertView() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: { id: number; body: AlertViewUpdate } | { body: AlertViewWrite }) =>
      call(() =>
        'id' in request
          ? http.put(`alertviews/${request.id}`, { json: request.body }).json<AlertView>()
          : http.post('alertviews/', { json: request.body }).json<AlertView>(),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: alertViewsQueryOptions.queryKey }),
  });
}
