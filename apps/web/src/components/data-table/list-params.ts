/** Server-side table state shared by every list screen. */
export interface SortItem {
  id: string;
  desc: boolean;
}

export interface TableState {
  pageIndex: number;
  /** Rows per page; ALL_ROWS means the footer's 'All'. */
  pageSize: number;
  sorting: SortItem[];
  search: string;
}

export const ALL_ROWS = -1;
/** The limit sent for 'All' (the contract accepts up to 1,000,000). */
export const ALL_LIMIT = 999_999;
export const PAGE_SIZE_OPTIONS = [10, 25, 50, 100, 5000] as const;

export const initialTableState = (pageSize = 25, sorting: SortItem[] = []): TableState => ({
  pageIndex: 0,
  pageSize,
  sorting,
  search: '',
});

/**
 * The paged-list query of the API: limit, offset = page × limit, sortBy and sortDesc as
 * comma-joined lists, and the search as one free-text filter term (commas would split it).
 */
export function toListParams(state: TableState): Record<string, string> {
  const all = state.pageSize === ALL_ROWS;
  const limit = all ? ALL_LIMIT : state.pageSize;
  const params: Record<string, string> = {
    limit: String(limit),
    offset: String(all ? 0 : state.pageIndex * limit),
  };
  if (state.sorting.length > 0) {
    params.sortBy = state.sorting.map((s) => s.id).join(',');
    params.sortDesc = state.sorting.map((s) => String(s.desc)).join(',');
  }
  const search = state.search.replaceAll(',', ' ').trim();
  if (search !== '') params.filter = search;
  return params;
}
