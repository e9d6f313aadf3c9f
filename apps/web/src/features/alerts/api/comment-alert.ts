import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AlertComments } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';
import { alertDetailQueryOptions } from './get-alert';

/** POST /alerts/{id}/comments {body} (Administrator, Operator): answers the alert's comments. */
export function useCommentAlert(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: string) =>
      call(() =>
        http
          .post(`alerts/${id}/comments`, { json: { body } })
          .json<z.infer<typeof AlertComments>>(),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: alertDetailQueryOptions(id).queryKey }),
  });
}
