import { queryOptions } from '@tanstack/react-query';
import type { RuleSource } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { ruleSourcesKeys } from './keys';
import { pollWhileActive } from './update-status';

/** GET /rulesources/{id}; polled while its last update is queued or running. */
export const sourceQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ruleSourcesKeys.source(id),
    queryFn: ({ signal }) =>
      call(() => http.get(`rulesources/${id}`, { signal }).json<RuleSource>()),
    refetchInterval: (query) => pollWhileActive([query.state.data?.last_update]),
  });
