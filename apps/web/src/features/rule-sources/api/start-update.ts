import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RuleSourceUpdateStarted } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';
import { ruleSourcesKeys } from './keys';

/**
 * POST /rulesources/{id}/update: queues an update (or answers the one already queued or
 * running). The lists read again and then poll it until it ends.
 */
export function useStartUpdate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (sourceId: number) =>
      call(() =>
        http.post(`rulesources/${sourceId}/update`).json<z.infer<typeof RuleSourceUpdateStarted>>(),
      ),
    onSuccess: async (_started, sourceId) => {
      await Promise.all([
        client.invalidateQueries({ queryKey: ruleSourcesKeys.lists }),
        client.invalidateQueries({ queryKey: ruleSourcesKeys.source(sourceId) }),
      ]);
    },
  });
}
