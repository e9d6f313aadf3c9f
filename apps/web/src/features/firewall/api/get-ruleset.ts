import { queryOptions } from '@tanstack/react-query';
import type { FirewallRuleset } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { rulesetsListKey } from './list-rulesets';

/** GET /fwruleset/{id}: the ruleset is the response body itself (spec §7). */
export const rulesetQueryOptions = (id: number) =>
  queryOptions({
    queryKey: [...rulesetsListKey, 'one', id],
    queryFn: ({ signal }) =>
      call(() => http.get(`fwruleset/${id}`, { signal }).json<FirewallRuleset>()),
    staleTime: 0,
  });
