import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ListResponse, Policy, PolicyUpdate, PolicyWriteInput } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';
import { mergePolicy, policiesListKey } from './list-policies';
import { policyRenderKey } from './render-policy';

export type PolicySave =
  { id?: undefined; body: PolicyWriteInput } | { id: number; body: z.input<typeof PolicyUpdate> };

/** POST /policies/ or PUT /policies/{id} (given fields replace); merged by id (spec §4). */
export function useSavePolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (save: PolicySave) =>
      call(() =>
        save.id === undefined
          ? http.post('policies/', { json: save.body }).json<Policy>()
          : http.put(`policies/${save.id}`, { json: save.body }).json<Policy>(),
      ),
    onSuccess: async (policy) => {
      client.setQueryData<ListResponse<Policy>>(policiesListKey, (list) =>
        mergePolicy(list, policy),
      );
      await client.invalidateQueries({ queryKey: policyRenderKey(policy.id) });
    },
  });
}
