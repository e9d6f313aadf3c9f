import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AlertComments } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';
import { alertDetailQueryOptions } from './get-alert';

type Comments = z.infer<typeof AlertComments>;

/** The alert's detail is read again after any change to its comments. */
function useCommentsMutation<T>(alertId: number, send: (input: T) => Promise<Comments>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: T) => call(() => send(input)),
    onSuccess: () =>
      client.invalidateQueries({ queryKey: alertDetailQueryOptions(alertId).queryKey }),
  });
}

/** POST /alerts/{id}/comments {body} (Administrator, Operator): answers the alert's comments. */
export function useCommentAlert(alertId: number) {
  return useCommentsMutation(alertId, (body: string) =>
    http.post(`alerts/${alertId}/comments`, { json: { body } }).json<Comments>(),
  );
}

/** PUT /alerts/comments/{id} {body}: its author or an Administrator corrects a comment. */
export function useEditComment(alertId: number) {
  return useCommentsMutation(alertId, ({ id, body }: { id: number; body: string }) =>
    http.put(`alerts/comments/${id}`, { json: { body } }).json<Comments>(),
  );
}

/** DELETE /alerts/comments/{id}: its author or an Administrator removes a comment. */
export function useDeleteComment(alertId: number) {
  return useCommentsMutation(alertId, (id: number) =>
    http.delete(`alerts/comments/${id}`).json<Comments>(),
  );
}
