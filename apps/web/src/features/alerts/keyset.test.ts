import { describe, expect, it } from 'vitest';
import { beforeOf, firstPage, footerTotal, movePage } from './keyset';

describe('alerts keyset paging', () => {
  it('goes forward by the shown page cursor and back by the kept ones', () => {
    let state = firstPage(100);
    expect(beforeOf(state)).toBeNull();
    state = movePage(state, { pageIndex: 1, pageSize: 100 }, '1700000000000000:42');
    expect(beforeOf(state)).toBe('1700000000000000:42');
    state = movePage(state, { pageIndex: 2, pageSize: 100 }, '1690000000000000:7');
    expect(state.cursors).toEqual([null, '1700000000000000:42', '1690000000000000:7']);
    state = movePage(state, { pageIndex: 1, pageSize: 100 }, null);
    expect(beforeOf(state)).toBe('1700000000000000:42');
    state = movePage(state, { pageIndex: 0, pageSize: 100 }, null);
    expect(beforeOf(state)).toBeNull();
  });

  it('stays on the last page and starts over on a new page size', () => {
    const last = movePage(firstPage(25), { pageIndex: 1, pageSize: 25 }, null);
    expect(last).toEqual(firstPage(25));
    const deep = movePage(firstPage(25), { pageIndex: 1, pageSize: 25 }, '5:5');
    expect(movePage(deep, { pageIndex: 0, pageSize: 50 }, '4:4')).toEqual(firstPage(50));
  });

  it('shows an exact total on the last page and keeps Next open before it', () => {
    expect(
      footerTotal({ pageIndex: 1, limit: 25, rows: 15, recordsTotal: 40, nextCursor: null }),
    ).toBe(40);
    expect(
      footerTotal({ pageIndex: 0, limit: 25, rows: 25, recordsTotal: 40, nextCursor: '1:1' }),
    ).toBe(40);
    // A lower-bound count (past count_limit) never hides the next page.
    expect(
      footerTotal({
        pageIndex: 3999,
        limit: 25,
        rows: 25,
        recordsTotal: 100_000,
        nextCursor: '1:1',
      }),
    ).toBe(100_001);
  });
});
