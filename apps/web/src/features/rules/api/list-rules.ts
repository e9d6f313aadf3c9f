import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse, RuleSummary } from '@palisade/contract';
import { toListParams, type TableState } from '../../../components/data-table/list-params';
import { call, http } from '../../../lib/api-client';
import { rulesCache } from './rules-cache';

/** Spec §9: rules are paged by 5000 by default; offset = (page − 1) × limit. */
export const RULES_PAGE_SIZE = 5000;

/** The key every rules list shares; rule saves and imports invalidate through it. */
export const rulesListKey = ['rules', 'list'] as const;

/** The fields a rules search may name (`proto:tcp`); the server's list of them. */
const RULE_FIELDS = new Set([
  'sid',
  'gid',
  'action',
  'proto',
  'classtype',
  'source',
  'enabled',
  'removed',
  'group',
  'msg',
]);

/**
 * The search's words: `field:value` words of a known field are terms of their own (`proto:tcp
 * heartbleed` is both), the other words stay one free-text phrase.
 */
function searchTerms(search: string): string[] {
  const words = search.split(/\s+/).filter((word) => word !== '');
  const isField = (word: string) => RULE_FIELDS.has(word.split(':', 1)[0] ?? '') && /:./.test(word);
  const phrase = words.filter((word) => !isField(word)).join(' ');
  return [...words.filter(isField), phrase];
}

/** Field terms (`group_id:3`) joined with the table's search. */
export function rulesFilter(state: TableState, terms: string[] = []): Record<string, string> {
  const params = toListParams(state);
  const filter = [...terms, ...searchTerms(params.filter ?? '')]
    .filter((term) => term !== '')
    .join(',');
  if (filter === '') delete params.filter;
  else params.filter = filter;
  return params;
}

/**
 * GET /rules/?limit&offset&sortBy&sortDesc&filter. With `cache`, the page fetched is stored
 * in the rules cache by sid (spec §4), with its filter, total, page and page size.
 */
export const rulesListQueryOptions = (state: TableState, terms: string[] = [], cache = false) =>
  queryOptions({
    queryKey: [...rulesListKey, state, terms, cache],
    queryFn: async ({ signal }) => {
      const searchParams = rulesFilter(state, terms);
      const page = await call(() =>
        http.get('rules/', { searchParams, signal }).json<ListResponse<RuleSummary>>(),
      );
      if (cache) {
        rulesCache.storePage({
          data: page.data,
          total: page.recordsTotal,
          currentPage: state.pageIndex + 1,
          pageSize: Number(searchParams.limit),
          filter: searchParams.filter ?? '',
        });
      }
      return page;
    },
    placeholderData: keepPreviousData,
  });
