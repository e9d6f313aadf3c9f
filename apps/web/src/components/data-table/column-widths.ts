import type { DataColumn } from './types';

/** The container the table's width queries ask (its scrolling box, not the window). */
export const TABLE_CONTAINER = 'data-table';

/**
 * In a dense table (fixed layout, one line per row), the least the one column without a
 * `width` keeps: it takes what the fixed columns leave, and without a floor a 1280 px window
 * beside the navigation left it nothing; below this the table scrolls sideways, unless
 * columns give way first (`giveWay`). 200: every column of the alert list then fits a 1440 px
 * window beside the open navigation, with some 20 px to spare.
 */
export const FLEX_MIN_WIDTH = 200;

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

/**
 * A dense table's columns with `hideBelow` set so that the columns named in `order` give way,
 * first to last, exactly where the table would otherwise scroll sideways: the first hides
 * below the width all columns need, the next below the width the rest need, and so on.
 */
export function giveWay<T>(columns: DataColumn<T>[], order: string[]): DataColumn<T>[] {
  const hideBelow = new Map<string, number>();
  let shown = columns;
  for (const id of order) {
    const need = minTableWidth(shown, true);
    if (need === undefined) break;
    hideBelow.set(id, need);
    shown = shown.filter((c) => c.id !== id);
  }
  return columns.map((c) => {
    const below = hideBelow.get(c.id);
    return below === undefined ? c : { ...c, hideBelow: below };
  });
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

/**
 * A dense cell's inline padding (8 px each side), and slack for the canvas measuring a little
 * narrower than the page lays out (subpixel rounding, a web font still loading).
 */
const DENSE_CELL_EXTRA = 22;
let measuringContext: CanvasRenderingContext2D | null | undefined;

/**
 * The width a dense column needs to show the widest of `texts` uncut in `font` (a CSS font
 * shorthand), measured once by a canvas; `fallback` where there is no canvas to measure with.
 */
export function textColumnWidth(texts: string[], font: string, fallback: number): number {
  if (measuringContext === undefined) {
    try {
      measuringContext = document.createElement('canvas').getContext('2d');
    } catch {
      measuringContext = null; // jsdom has no canvas
    }
  }
  if (measuringContext === null) return fallback;
  measuringContext.font = font;
  const widest = Math.max(...texts.map((text) => measuringContext?.measureText(text).width ?? 0));
  return Math.ceil(widest) + DENSE_CELL_EXTRA;
}
