import type { Table as ReactTable } from '@tanstack/react-table';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import { columnClass, pinnedCell } from './data-table-styles';
import type { DataColumn } from './types';

interface DataTableHeadProps<T> {
  table: ReactTable<T>;
  columns: DataColumn<T>[];
}

/** The sticky header row: a sort label on each sortable column, its direction shown. */
export function DataTableHead<T>({ table, columns }: DataTableHeadProps<T>) {
  return (
    <TableHead>
      {table.getHeaderGroups().map((group) => (
        <TableRow key={group.id}>
          {group.headers.map((header) => {
            const column = columns.find((c) => c.id === header.id);
            const sorted = header.column.getIsSorted();
            return (
              <TableCell
                key={header.id}
                align={column?.align}
                className={column === undefined ? undefined : columnClass(column)}
                sx={(theme) => ({
                  width: column?.width,
                  fontWeight: 600,
                  // A header on two lines would only make the table taller.
                  whiteSpace: 'nowrap',
                  // Above the pinned body cells and the other sticky header cells.
                  ...(column?.pinned === 'end' && { ...pinnedCell(theme), zIndex: 3 }),
                })}
              >
                {header.column.getCanSort() ? (
                  <TableSortLabel
                    active={sorted !== false}
                    direction={sorted === false ? 'asc' : sorted}
                    onClick={header.column.getToggleSortingHandler()}
                  >
                    {column?.header}
                  </TableSortLabel>
                ) : (
                  column?.header
                )}
              </TableCell>
            );
          })}
        </TableRow>
      ))}
    </TableHead>
  );
}
