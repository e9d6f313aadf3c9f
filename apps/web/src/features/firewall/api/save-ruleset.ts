import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FirewallRuleset, FirewallRulesetWriteInput } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { rulesetQueryOptions } from './get-ruleset';
import { mergeRuleset, rulesetsListQueryOptions } from './list-rulesets';

/** POST /fwruleset/ (201) or PUT /fwruleset/{id} (the whole ruleset, rule order included). */
export function useSaveRuleset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: FirewallRulesetWriteInput }) =>
      call(() =>
        (id === null
          ? http.post('fwruleset/', { json: body })
          : http.put(`fwruleset/${id}`, { json: body })
        ).json<FirewallRuleset>(),
      ),
    onSuccess: (ruleset) => {
      client.setQueryData(rulesetsListQueryOptions.queryKey, (list) => mergeRuleset(list, ruleset));
      client.setQueryData(rulesetQueryOptions(ruleset.id).queryKey, ruleset);
    },
  });
}
