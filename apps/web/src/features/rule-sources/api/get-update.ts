import { queryOptions } from '@tanstack/react-query';
import type { RejectedLine, RuleSourceUpdateSummary } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { ruleSourcesKeys } from './keys';
import { pollWhileActive } from './update-status';

/** One update with the lines and members its import warned about. */
export type RuleSourceUpdateDetail = RuleSourceUpdateSummary & { warnings: RejectedLine[] };

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
