import type { ReactNode } from 'react';

/** One column: a header text, how to draw a cell, and whether the server can sort by it. */
export interface DataColumn<T> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  sortable?: boolean;
  width?: number | string;
  align?: 'left' | 'right' | 'center';
}
