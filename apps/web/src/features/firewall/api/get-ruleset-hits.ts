import { queryOptions } from '@tanstack/react-query';
import type { FirewallHits } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { rulesetsListKey } from './list-rulesets';

/** GET /fwruleset/{id}/hits?days=: packets and bytes per saved rule, summed over devices. */
export const rulesetHitsQueryOptions = (id: number, days: number) =>
  queryOptions({
    queryKey: [...rulesetsListKey, 'hits', id, days],
    queryFn: ({ signal }) =>
      call(() =>
        http
          .get(`fwruleset/${id}/hits`, { searchParams: { days: String(days) }, signal })
          .json<FirewallHits>(),
      ),
    staleTime: 30_000,
  });
