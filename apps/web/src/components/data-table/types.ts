import type { ReactNode } from 'react';

/** One column: a header text, how to draw a cell, and whether the server can sort by it. */
export interface DataColumn<T> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  sortable?: boolean;
  /**
   * Fixed, in pixels in a dense table. Without one the column takes what the others leave
   * (one such column per table); in a dense table it keeps at least FLEX_MIN_WIDTH
   * (column-widths.ts) and the table scrolls sideways below that.
   */
  width?: number | string;
  align?: 'left' | 'right' | 'center';
  /**
   * Left out while the table is narrower than this many pixels (the table's own width, so an
   * open navigation drawer counts): for columns that can give way to the vital ones.
   */
  hideBelow?: number;
  /**
   * Kept in view at the table's end edge (right in ltr, left in rtl) while the other columns
   * scroll sideways: for the row actions.
   */
  pinned?: 'end';
  /**
   * A column the user may show or hide (from the table's Columns menu, when the table has a
   * `columnsKey`), and whether it is shown until the user chooses.
   */
  optional?: 'shown' | 'hidden';
}
