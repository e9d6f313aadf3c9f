/**
 * Keyset paging of the alerts list: page n+1 is what comes `before` page n's next_cursor, so
 * only the cursors of the pages seen are kept, and Previous needs no offset either.
 */
export interface KeysetState {
  pageSize: number;
  pageIndex: number;
  /** cursors[i] is the `before` of page i; the newest page has none. */
  cursors: (string | null)[];
}

export const firstPage = (pageSize: number): KeysetState => ({
  pageSize,
  pageIndex: 0,
  cursors: [null],
});

export const beforeOf = (state: KeysetState): string | null =>
  state.cursors[state.pageIndex] ?? null;

/** The table asks for another page or page size; `nextCursor` is the shown page's. */
export function movePage(
  state: KeysetState,
  wanted: { pageIndex: number; pageSize: number },
  nextCursor: string | null | undefined,
): KeysetState {
  if (wanted.pageSize !== state.pageSize) return firstPage(wanted.pageSize);
  if (wanted.pageIndex > state.pageIndex) {
    if (nextCursor === null || nextCursor === undefined) return state;
    return {
      ...state,
      pageIndex: state.pageIndex + 1,
      cursors: [...state.cursors.slice(0, state.pageIndex + 1), nextCursor],
    };
  }
  if (wanted.pageIndex < state.pageIndex) {
    return { ...state, pageIndex: Math.max(0, wanted.pageIndex) };
  }
  return state;
}

/**
 * The total the footer shows. On the last page it is exact from what was seen; before it, at
 * least one more row than this page, so Next stays open even when the server's count is a
 * lower bound.
 */
export function footerTotal(options: {
  pageIndex: number;
  limit: number;
  rows: number;
  recordsTotal: number;
  nextCursor: string | null | undefined;
}): number {
  const { pageIndex, limit, rows, recordsTotal, nextCursor } = options;
  if (nextCursor === null) return pageIndex * limit + rows;
  return Math.max(recordsTotal, (pageIndex + 1) * limit + 1);
}
