import { describe, expect, it } from 'vitest';
import { FLEX_MIN_WIDTH, giveWay, tableWidthStyles } from './column-widths';
import type { DataColumn } from './types';

const column = (id: string, over: Partial<DataColumn<unknown>> = {}): DataColumn<unknown> => ({
  id,
  header: id,
  cell: () => null,
  ...over,
});

describe('the table width rules', () => {
  it("keeps a dense table's flexible column its floor: the table is never narrower", () => {
    const columns = [column('time', { width: 175 }), column('msg'), column('src', { width: 160 })];
    expect(tableWidthStyles(columns, true)).toEqual({ minWidth: 175 + FLEX_MIN_WIDTH + 160 });
  });

  it('leaves tables alone whose columns size themselves', () => {
    const columns = [column('time', { width: 175 }), column('msg')];
    // Not dense: the browser lays the columns out by their content.
    expect(tableWidthStyles(columns, false)).toEqual({});
    // A width in other units cannot be summed; every column fixed leaves nothing to keep.
    expect(tableWidthStyles([column('a', { width: '30%' }), column('msg')], true)).toEqual({});
    expect(tableWidthStyles([column('a', { width: 40 })], true)).toEqual({});
  });

  it('hides columns below their widths, narrowest query last, the floor less what is hidden', () => {
    const columns = [
      column('name'),
      column('rate', { width: 100, hideBelow: 900 }),
      column('health', { width: 80, hideBelow: 1100 }),
      column('city', { width: 120 }),
    ];
    const styles = tableWidthStyles(columns, true);
    expect(Object.keys(styles)).toEqual([
      'minWidth',
      '@container data-table (width < 1100px)',
      '@container data-table (width < 900px)',
    ]);
    expect(styles['minWidth']).toBe(FLEX_MIN_WIDTH + 300);
    expect(styles['@container data-table (width < 1100px)']).toEqual({
      '& .data-col-health': { display: 'none' },
      minWidth: FLEX_MIN_WIDTH + 220,
    });
    expect(styles['@container data-table (width < 900px)']).toEqual({
      '& .data-col-rate': { display: 'none' },
      '& .data-col-health': { display: 'none' },
      minWidth: FLEX_MIN_WIDTH + 120,
    });
    expect(tableWidthStyles(columns, false)).toEqual({
      '@container data-table (width < 1100px)': { '& .data-col-health': { display: 'none' } },
      '@container data-table (width < 900px)': {
        '& .data-col-rate': { display: 'none' },
        '& .data-col-health': { display: 'none' },
      },
    });
  });

  it('lets columns give way in order exactly where the table would scroll sideways', () => {
    const columns = [
      column('time', { width: 200 }),
      column('device', { width: 110 }),
      column('msg'),
      column('proto', { width: 72 }),
    ];
    const all = 200 + 110 + FLEX_MIN_WIDTH + 72;
    const given = giveWay(columns, ['proto', 'device']);
    expect(given.map((c) => [c.id, c.hideBelow])).toEqual([
      ['time', undefined],
      ['device', all - 72],
      ['msg', undefined],
      ['proto', all],
    ]);
    // The styles then keep the table as wide as what is left shown at each width.
    const styles = tableWidthStyles(given, true);
    expect(styles['minWidth']).toBe(all);
    expect(styles[`@container data-table (width < ${all}px)`]).toMatchObject({
      minWidth: all - 72,
    });
    expect(styles[`@container data-table (width < ${all - 72}px)`]).toMatchObject({
      minWidth: all - 72 - 110,
    });
  });
});
