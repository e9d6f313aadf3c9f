import type { ReactNode } from 'react';

/** One column: a header text, how to draw a cell, and whether the server can sort by it. */
export interface DataColumn<T> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  sortable?: boolean;
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
}
