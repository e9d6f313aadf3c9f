import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse, RuleSource, RuleSourceStatusFilter } from '@palisade/contract';
import { toListParams, type TableState } from '../../../components/data-table/list-params';
import { call, http } from '../../../lib/api-client';
import { ruleSourcesKeys } from './keys';
import { pollWhileActive } from './update-status';

/** The list's query: the table's paging, sort and search, and the last-update filter. */
const sourcesListParams = (state: TableState, status: RuleSourceStatusFilter | null) => {
  const params = toListParams(state);
  if (status === null) return params;
  const terms = [`status:${status}`, ...(params.filter === undefined ? [] : [params.filter])];
  return { ...params, filter: terms.join(',') };
};

/**
 * GET /rulesources/ paged, sorted and searched by the server, optionally only the sources whose
 * last update `status` says; polled while an update runs.
 */
export const sourcesListQueryOptions = (
  state: TableState,
  status: RuleSourceStatusFilter | null = null,
) =>
  queryOptions({
    queryKey: [...ruleSourcesKeys.lists, sourcesListParams(state, status)],
    queryFn: ({ signal }) =>
      call(() =>
        http
          .get('rulesources/', { searchParams: sourcesListParams(state, status), signal })
          .json<ListResponse<RuleSource>>(),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      pollWhileActive((query.state.data?.data ?? []).map((source) => source.last_update)),
  });
