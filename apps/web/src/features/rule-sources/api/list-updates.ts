import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse, RuleSourceUpdateSummary } from '@palisade/contract';
import { toListParams, type TableState } from '../../../components/data-table/list-params';
import { call, http } from '../../../lib/api-client';
import { ruleSourcesKeys } from './keys';
import { pollWhileActive } from './update-status';

/** GET /rulesources/{id}/updates, newest first; polled while one of them runs. */
export const updatesListQueryOptions = (sourceId: number, state: TableState) =>
  queryOptions({
    queryKey: [...ruleSourcesKeys.updates(sourceId), 'list', toListParams(state)],
    queryFn: ({ signal }) =>
      call(() =>
        http
          .get(`rulesources/${sourceId}/updates`, { searchParams: toListParams(state), signal })
          .json<ListResponse<RuleSourceUpdateSummary>>(),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => pollWhileActive(query.state.data?.data ?? []),
  });
