import { describe, expect, it } from 'vitest';
import { ListQuery } from '@palisade/contract';
import { ALL_LIMIT, ALL_ROWS, initialTableState, toListParams } from './list-params';

describe('toListParams', () => {
  it('pages with offset = page × limit', () => {
    expect(toListParams({ ...initialTableState(25), pageIndex: 3 })).toEqual({
      limit: '25',
      offset: '75',
    });
  });

  it('joins sorting with commas and sends search as one filter term', () => {
    const params = toListParams({
      pageIndex: 0,
      pageSize: 5000,
      sorting: [
        { id: 'email', desc: false },
        { id: 'created_at', desc: true },
      ],
      search: ' foo, bar ',
    });
    expect(params).toEqual({
      limit: '5000',
      offset: '0',
      sortBy: 'email,created_at',
      sortDesc: 'false,true',
      filter: 'foo  bar',
    });
  });

  it("'All' asks for everything from the start", () => {
    expect(toListParams({ ...initialTableState(), pageSize: ALL_ROWS, pageIndex: 4 })).toEqual({
      limit: String(ALL_LIMIT),
      offset: '0',
    });
  });

  it('produces what the contract accepts', () => {
    const params = toListParams({
      pageIndex: 2,
      pageSize: ALL_ROWS,
      sorting: [{ id: 'id', desc: true }],
      search: 'x',
    });
    expect(ListQuery.safeParse(params).success).toBe(true);
  });
});
