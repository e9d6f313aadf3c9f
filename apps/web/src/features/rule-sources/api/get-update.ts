import { queryOptions } from '@tanstack/react-query';
import type { RuleSourceUpdateDetail } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { ruleSourcesKeys } from './keys';
import { pollWhileActive } from './update-status';

/** GET /rulesources/{id}/updates/{updateId}; polled until it ends. */
export const updateQueryOptions = (sourceId: number, updateId: number) =>
  queryOptions({
    queryKey: ruleSourcesKeys.update(sourceId, updateId),
    queryFn: ({ signal }) =>
      call(() =>
        http
          .get(`rulesources/${sourceId}/updates/${updateId}`, { signal })
          .json<RuleSourceUpdateDetail>(),
      ),
    refetchInterval: (query) => pollWhileActive([query.state.data]),
  });
