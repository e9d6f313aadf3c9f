import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse, RuleSource } from '@palisade/contract';
import { toListParams, type TableState } from '../../../components/data-table/list-params';
import { call, http } from '../../../lib/api-client';
import { ruleSourcesKeys } from './keys';
import { pollWhileActive } from './update-status';

/** GET /rulesources/ paged, sorted and searched by the server; polled while an update runs. */
export const sourcesListQueryOptions = (state: TableState) =>
  queryOptions({
    queryKey: [...ruleSourcesKeys.lists, toListParams(state)],
    queryFn: ({ signal }) =>
      call(() =>
        http
          .get('rulesources/', { searchParams: toListParams(state), signal })
          .json<ListResponse<RuleSource>>(),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      pollWhileActive((query.state.data?.data ?? []).map((source) => source.last_update)),
  });
