import { useEffect, useMemo, useRef, type RefObject } from 'react';
import {
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type Row,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableContainer from '@mui/material/TableContainer';
import { useColumnChoice } from './column-choice';
import { TABLE_CONTAINER, tableWidthStyles } from './column-widths';
import { ColumnsMenu } from './ColumnsMenu';
import { DataRow } from './DataRow';
import { DataTableHead } from './DataTableHead';
import { DataTablePagination } from './DataTablePagination';
import { tableStylesWith } from './data-table-styles';
import type { TableState } from './list-params';
import { SearchField } from './SearchField';
import { StatusRow } from './StatusRow';
import type { DataColumn } from './types';

export interface DataTableProps<T> {
  columns: DataColumn<T>[];
  rows: T[];
  total: number;
  getRowId: (row: T) => string;
  state: TableState;
  onStateChange: (next: TableState) => void;
  loading?: boolean;
  error?: string | null;
  onRetry?: () => void;
  emptyText?: string;
  searchable?: boolean;
  /** Shown under the search box: what it matches. */
  searchHint?: string;
  /** Height of the scrolling body; rows outside it are not in the DOM. */
  height?: number | string;
  rowHeight?: number;
  /** Rows drawn beyond the window each way (8): fewer for a list that redraws them often. */
  overscan?: number;
  label: string;
  /**
   * One line per row: fixed column widths (the header's), no wrapping, an ellipsis for what
   * does not fit. The layout then stays put whatever the rows hold.
   */
  dense?: boolean;
  /** The row the keyboard is on: marked (aria-selected) and kept in view. */
  activeIndex?: number | null;
  onRowClick?: (row: T) => void;
  /** Told whether the rows are scrolled to their top, when that changes. */
  onAtTopChange?: (atTop: boolean) => void;
  /**
   * Offers the `optional` columns in a Columns menu and keeps the user's choice under this
   * name; without it they stay as their `optional` says.
   */
  columnsKey?: string;
}

/**
 * Server-side paged, sorted and searched table. Rows are virtualised, so a 5000-row page
 * keeps only the visible rows (plus overscan) in the DOM.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { rows, total, state, onStateChange, rowHeight = 48 } = props;
  const { shown: columns, choice, choose } = useColumnChoice(props.columns, props.columnsKey);
  const chooser =
    props.columnsKey !== undefined && props.columns.some((c) => c.optional !== undefined);
  // A hidden column no longer orders the rows: nothing on screen would say so.
  const chooseColumn = (id: string, on: boolean) => {
    choose(id, on);
    if (!on && state.sorting.some((s) => s.id === id)) {
      onStateChange({ ...state, sorting: state.sorting.filter((s) => s.id !== id), pageIndex: 0 });
    }
  };
  const scrollRef = useRef<HTMLDivElement>(null);
  const table = useServerSortedTable({
    columns,
    rows,
    getRowId: props.getRowId,
    state,
    onStateChange,
  });
  const tableRows = table.getRowModel().rows;
  const activeIndex = props.activeIndex ?? null;
  const rowWindow = useRowWindow({
    count: tableRows.length,
    scrollRef,
    rowHeight,
    overscan: props.overscan ?? 8,
    activeIndex,
  });
  const status = statusOf(props, rows);
  const dense = props.dense === true;
  const tableStyles = useMemo(
    () => tableStylesWith(tableWidthStyles(columns, dense), dense),
    [columns, dense],
  );

  return (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      {(props.searchable !== false || chooser) && (
        <Box sx={{ display: 'flex', alignItems: 'flex-start' }}>
          {props.searchable !== false && (
            <SearchField
              value={state.search}
              onChange={(search) => onStateChange({ ...state, search, pageIndex: 0 })}
              hint={props.searchHint}
            />
          )}
          {chooser && (
            <Box sx={{ marginInlineStart: 'auto', px: 1, pt: 1.5 }}>
              <ColumnsMenu columns={props.columns} choice={choice} onChoose={chooseColumn} />
            </Box>
          )}
        </Box>
      )}
      <Box sx={{ height: 4 }}>{props.loading === true && <LinearProgress />}</Box>
      <TableContainer
        ref={scrollRef}
        onScroll={
          props.onAtTopChange === undefined
            ? undefined
            : (event) => props.onAtTopChange?.(event.currentTarget.scrollTop < rowHeight / 2)
        }
        sx={{
          maxHeight: props.height ?? 'calc(100vh - 300px)',
          minHeight: 160,
          // Columns with `hideBelow` follow this box's width, not the window's.
          containerType: 'inline-size',
          containerName: TABLE_CONTAINER,
        }}
      >
        <Table
          stickyHeader
          size="small"
          aria-label={props.label}
          aria-rowcount={total}
          sx={tableStyles}
        >
          <DataTableHead table={table} columns={columns} />
          <TableBody>
            {status !== null ? (
              <StatusRow
                colSpan={columns.length}
                status={status}
                error={props.error}
                emptyText={props.emptyText}
                onRetry={props.onRetry}
              />
            ) : (
              <VirtualRows
                rows={tableRows}
                window={rowWindow}
                columns={columns}
                rowHeight={rowHeight}
                activeIndex={activeIndex}
                onRowClick={props.onRowClick}
              />
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <DataTablePagination total={total} state={state} onStateChange={onStateChange} />
    </Paper>
  );
}

interface ServerSortedTableOptions<T> {
  columns: DataColumn<T>[];
  rows: T[];
  getRowId: (row: T) => string;
  state: TableState;
  onStateChange: (next: TableState) => void;
}

/** A TanStack table over one page of rows that the server has already sorted. */
function useServerSortedTable<T>(options: ServerSortedTableOptions<T>) {
  const { columns, rows, getRowId, state, onStateChange } = options;
  const columnDefs = useMemo<ColumnDef<T>[]>(
    () =>
      columns.map((column) => ({
        id: column.id,
        // Sorting is done by the server; an accessor only makes the column sortable here.
        accessorFn: () => column.id,
        header: column.header,
        enableSorting: column.sortable ?? false,
        cell: ({ row }) => column.cell(row.original),
      })),
    [columns],
  );

  const onSortingChange = (updater: Updater<SortingState>) => {
    const sorting = typeof updater === 'function' ? updater(state.sorting) : updater;
    onStateChange({ ...state, sorting, pageIndex: 0 });
  };

  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Table is not memo-safe; this component does not memoise its output.
  return useReactTable({
    data: rows,
    columns: columnDefs,
    getRowId,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    enableMultiSort: true,
    state: { sorting: state.sorting },
    onSortingChange,
  });
}

interface RowWindowOptions {
  count: number;
  scrollRef: RefObject<HTMLDivElement | null>;
  rowHeight: number;
  overscan: number;
  activeIndex: number | null;
}

/**
 * Which rows are in the scrolled window, and the space the rows above and below it take; keeps
 * the active row in view. Called by the table itself, which owns the scroll element's ref.
 */
function useRowWindow({ count, scrollRef, rowHeight, overscan, activeIndex }: RowWindowOptions) {
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual is not memo-safe; the table does not memoise its output.
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan,
  });
  const items = virtualizer.getVirtualItems();
  useEffect(() => {
    if (activeIndex !== null) virtualizer.scrollToIndex(activeIndex, { align: 'auto' });
  }, [activeIndex, virtualizer]);
  return {
    items,
    padTop: items[0]?.start ?? 0,
    padBottom: virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0),
  };
}

interface VirtualRowsProps<T> {
  rows: Row<T>[];
  window: ReturnType<typeof useRowWindow>;
  columns: DataColumn<T>[];
  rowHeight: number;
  activeIndex: number | null;
  onRowClick: ((row: T) => void) | undefined;
}

/** The rows in the scrolled window, with spacers standing for the rows above and below it. */
function VirtualRows<T>({
  rows,
  window,
  columns,
  rowHeight,
  activeIndex,
  onRowClick,
}: VirtualRowsProps<T>) {
  const { items, padTop, padBottom } = window;
  return (
    <>
      {padTop > 0 && <tr aria-hidden style={{ height: padTop }} />}
      {items.map((item) => {
        const row = rows[item.index];
        if (row === undefined) return null;
        return (
          <DataRow
            key={row.id}
            row={row.original}
            columns={columns}
            height={rowHeight}
            active={item.index === activeIndex}
            onClick={onRowClick}
          />
        );
      })}
      {padBottom > 0 && <tr aria-hidden style={{ height: padBottom }} />}
    </>
  );
}

function statusOf<T>(
  props: DataTableProps<T>,
  rows: readonly T[],
): 'loading' | 'error' | 'empty' | null {
  if (props.error !== undefined && props.error !== null) return 'error';
  if (rows.length > 0) return null;
  return props.loading === true ? 'loading' : 'empty';
}
