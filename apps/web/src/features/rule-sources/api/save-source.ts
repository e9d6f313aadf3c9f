import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RuleSource, RuleSourceCreate, RuleSourceUpdate } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { ruleSourcesKeys } from './keys';

export type SourceSave =
  { id?: undefined; body: RuleSourceCreate } | { id: number; body: RuleSourceUpdate };

/** POST /rulesources/ or PUT /rulesources/{id}; the lists and the source are read again. */
export function useSaveSource() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (save: SourceSave) =>
      call(() =>
        save.id === undefined
          ? http.post('rulesources/', { json: save.body }).json<RuleSource>()
          : http.put(`rulesources/${save.id}`, { json: save.body }).json<RuleSource>(),
      ),
    onSuccess: async (source) => {
      client.setQueryData(ruleSourcesKeys.source(source.id), source);
      await client.invalidateQueries({ queryKey: ruleSourcesKeys.lists });
    },
  });
}
