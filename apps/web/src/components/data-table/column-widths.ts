import type { DataColumn } from './types';

/** The container the table's width queries ask (its scrolling box, not the window). */
export const TABLE_CONTAINER = 'data-table';

/**
 * In a dense table (fixed layout, one line per row), the least the one column without a
 * `width` keeps: it takes what the fixed columns leave, and without a floor a 1280 px window
 * beside the navigation left it nothing; below this the table scrolls sideways. 220: the
 * alert list (927 px of fixed columns) then fits a 1280 px window beside the folded
 * navigation and scrolls beside the open one.
 */
export const FLEX_MIN_WIDTH = 220;

type ColumnRules = { display: 'none' } | { minWidth: number };
export type WidthStyles = Record<string, number | Record<string, ColumnRules | number>>;

/**
 * The table's width rules, pure CSS so that no row is drawn again: one container query per
 * width below which columns give way (`hideBelow`); and, in a dense table whose other
 * columns all have a fixed width, a minimum table width that keeps the flexible column's
 * floor, less the columns hidden at that width.
 */
export function tableWidthStyles<T>(columns: DataColumn<T>[], dense: boolean): WidthStyles {
  const thresholds = [
    ...new Set(columns.flatMap((c) => (c.hideBelow === undefined ? [] : [c.hideBelow]))),
  ].sort((a, b) => b - a); // widest first: a narrower query comes later and wins
  const minWidth = (shown: DataColumn<T>[]) => minTableWidth(shown, dense);
  const styles: WidthStyles = {};
  const all = minWidth(columns);
  if (all !== undefined) styles['minWidth'] = all;
  for (const threshold of thresholds) {
    const rules: Record<string, ColumnRules | number> = {};
    for (const column of columns) {
      if (column.hideBelow !== undefined && column.hideBelow >= threshold)
        rules[`& .data-col-${column.id}`] = { display: 'none' };
    }
    const narrow = minWidth(
      columns.filter((c) => c.hideBelow === undefined || c.hideBelow < threshold),
    );
    if (narrow !== undefined) rules['minWidth'] = narrow;
    styles[`@container ${TABLE_CONTAINER} (width < ${threshold}px)`] = rules;
  }
  return styles;
}

/** The fixed widths plus the flexible column's floor; none unless every width is in pixels. */
function minTableWidth<T>(columns: DataColumn<T>[], dense: boolean): number | undefined {
  if (!dense || !columns.some((c) => c.width === undefined)) return undefined;
  let sum = 0;
  for (const column of columns) {
    if (column.width === undefined) sum += FLEX_MIN_WIDTH;
    else if (typeof column.width === 'number') sum += column.width;
    else return undefined;
  }
  return sum;
}
