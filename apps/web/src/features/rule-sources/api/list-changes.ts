import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse, RuleChange, RuleChangeKind } from '@palisade/contract';
import { toListParams, type TableState } from '../../../components/data-table/list-params';
import { call, http } from '../../../lib/api-client';
import { ruleSourcesKeys } from './keys';

export interface ChangesQuery {
  state: TableState;
  /** Only changes of this kind; null for all. */
  kind: RuleChangeKind | null;
  /** Only this rule's change (a link from the alerts or policies screens). */
  sid: number | null;
}

/** The list's filter: `kind:` and `sid:` terms before the free text on msg. */
export function changesParams({ state, kind, sid }: ChangesQuery): Record<string, string> {
  const params = toListParams(state);
  const terms = [
    kind === null ? null : `kind:${kind}`,
    sid === null ? null : `sid:${sid}`,
    params.filter ?? null,
  ].filter((term): term is string => term !== null);
  if (terms.length > 0) params.filter = terms.join(',');
  return params;
}

/** GET /rulesources/{id}/updates/{updateId}/changes: the update's changelog, paged. */
export const changesListQueryOptions = (sourceId: number, updateId: number, query: ChangesQuery) =>
  queryOptions({
    queryKey: [...ruleSourcesKeys.changes(sourceId, updateId), changesParams(query)],
    queryFn: ({ signal }) =>
      call(() =>
        http
          .get(`rulesources/${sourceId}/updates/${updateId}/changes`, {
            searchParams: changesParams(query),
            signal,
          })
          .json<ListResponse<RuleChange>>(),
      ),
    placeholderData: keepPreviousData,
  });
