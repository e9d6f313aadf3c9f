import { memo, type ReactNode } from 'react';
import { cellClass } from './data-table-styles';
import type { DataColumn } from './types';

/**
 * One body row. Memoised: scrolling re-renders the table for its new window, and the rows that
 * stay in it (all but a few) are not drawn again; a row changes only with its data or columns.
 * Plain `tr`/`td` styled once by the table (`bodyCellStyles`), not a MUI component per cell:
 * rows are mounted at every scroll step. Its height is fixed, as the virtualiser counts on it.
 */
export type DataRowProps<T> = {
  row: T;
  columns: DataColumn<T>[];
  height: number;
  active: boolean;
  onClick: ((row: T) => void) | undefined;
};

export const DataRow = memo(function DataRow<T>(props: DataRowProps<T>) {
  const { row, columns, height, active, onClick } = props;
  return (
    <tr
      className={active ? 'data-row data-row-active' : 'data-row'}
      style={{ height }}
      aria-selected={onClick === undefined ? undefined : active}
      onClick={onClick === undefined ? undefined : () => onClick(row)}
    >
      {columns.map((column) => (
        <td key={column.id} className={cellClass(column)}>
          {column.cell(row)}
        </td>
      ))}
    </tr>
  );
}) as <T>(props: DataRowProps<T>) => ReactNode;
