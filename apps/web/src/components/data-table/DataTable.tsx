import { memo, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import { alpha, lighten, type SxProps, type Theme } from '@mui/material/styles';
import { useColumnChoice } from './column-choice';
import { TABLE_CONTAINER, tableWidthStyles, type WidthStyles } from './column-widths';
import { ColumnsMenu } from './ColumnsMenu';
import { ALL_ROWS, PAGE_SIZE_OPTIONS, type TableState } from './list-params';
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
  const { t } = useTranslation();
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
  const table = useReactTable({
    data: rows,
    columns: columnDefs,
    getRowId: props.getRowId,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    enableMultiSort: true,
    state: { sorting: state.sorting },
    onSortingChange,
  });
  const tableRows = table.getRowModel().rows;

  const virtualizer = useVirtualizer({
    count: tableRows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: props.overscan ?? 8,
  });
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  const width = columns.length;
  const status = statusOf(props, rows);
  const dense = props.dense === true;
  const tableStyles = useMemo(
    () => tableStylesWith(tableWidthStyles(columns, dense), dense),
    [columns, dense],
  );
  const activeIndex = props.activeIndex ?? null;
  useEffect(() => {
    if (activeIndex !== null) virtualizer.scrollToIndex(activeIndex, { align: 'auto' });
  }, [activeIndex, virtualizer]);

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
          <TableBody>
            {status !== null ? (
              <StatusRow
                colSpan={width}
                status={status}
                error={props.error}
                emptyText={props.emptyText}
                onRetry={props.onRetry}
              />
            ) : (
              <>
                {padTop > 0 && <tr aria-hidden style={{ height: padTop }} />}
                {items.map((item) => {
                  const row = tableRows[item.index];
                  if (row === undefined) return null;
                  return (
                    <DataRow
                      key={row.id}
                      row={row.original}
                      columns={columns}
                      height={rowHeight}
                      active={item.index === activeIndex}
                      onClick={props.onRowClick}
                    />
                  );
                })}
                {padBottom > 0 && <tr aria-hidden style={{ height: padBottom }} />}
              </>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={total}
        page={state.pageSize === ALL_ROWS ? 0 : state.pageIndex}
        rowsPerPage={state.pageSize}
        rowsPerPageOptions={[...PAGE_SIZE_OPTIONS, { label: t('table.all'), value: ALL_ROWS }]}
        labelRowsPerPage={t('table.rowsPerPage')}
        labelDisplayedRows={({ from, to, count }) => t('table.displayedRows', { from, to, count })}
        getItemAriaLabel={(type) => t(PAGE_LABELS[type])}
        onPageChange={(_event, pageIndex) => onStateChange({ ...state, pageIndex })}
        onRowsPerPageChange={(event) =>
          onStateChange({ ...state, pageSize: Number(event.target.value), pageIndex: 0 })
        }
      />
    </Paper>
  );
}

/**
 * One body row. Memoised: scrolling re-renders the table for its new window, and the rows that
 * stay in it (all but a few) are not drawn again; a row changes only with its data or columns.
 * Plain `tr`/`td` styled once by the table (`bodyCellStyles`), not a MUI component per cell:
 * rows are mounted at every scroll step. Its height is fixed, as the virtualiser counts on it.
 */
type DataRowProps<T> = {
  row: T;
  columns: DataColumn<T>[];
  height: number;
  active: boolean;
  onClick: ((row: T) => void) | undefined;
};

const DataRow = memo(function DataRow<T>(props: DataRowProps<T>) {
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

const CELL_CLASS = {
  left: 'data-cell',
  right: 'data-cell data-cell-right',
  center: 'data-cell data-cell-center',
} as const;

/** Classes a column's header and body cells share: pinned, and its own for hiding it. */
function columnClass<T>(column: DataColumn<T>): string {
  const pinned = column.pinned === 'end' ? ' data-cell-pinned' : '';
  const hideable = column.hideBelow === undefined ? '' : ` data-col-${column.id}`;
  return `${pinned}${hideable}`.trimStart();
}

function cellClass<T>(column: DataColumn<T>): string {
  return `${CELL_CLASS[column.align ?? 'left']} ${columnClass(column)}`.trimEnd();
}

/** The row actions stay at the end edge; logical insets follow the writing direction. */
const pinnedCell = (theme: Theme) => ({
  position: 'sticky' as const,
  insetInlineEnd: 0,
  borderInlineStart: `1px solid ${theme.palette.divider}`,
});

/**
 * What MUI's small body TableCell and hover TableRow look like, for the plain body rows; plus
 * the width rules (columns hidden on a narrow table, the flexible column's floor).
 */
const tableStylesWith =
  (widths: WidthStyles, dense: boolean): SxProps<Theme> =>
  (theme) => ({
    ...widths,
    ...(dense && {
      tableLayout: 'fixed',
      '& thead th': {
        padding: '4px 8px',
        overflow: 'hidden',
        textOverflow: 'ellipsis',
      },
      // More specific than the cells' own rule below, which it narrows.
      '& tr.data-row td.data-cell': {
        padding: '0 8px',
        whiteSpace: 'nowrap',
        overflow: 'hidden',
        textOverflow: 'ellipsis',
      },
    }),
    '& tr.data-row-active': {
      backgroundColor: alpha(theme.palette.primary.main, 0.12),
      outline: `2px solid ${theme.palette.primary.main}`,
      outlineOffset: -2,
    },
    '& tr.data-row:hover': { backgroundColor: theme.palette.action.hover },
    '& td.data-cell': {
      ...theme.typography.body2,
      color: theme.palette.text.primary,
      padding: '6px 16px',
      textAlign: 'start',
      verticalAlign: 'middle',
      borderBottom: `1px solid ${
        theme.palette.mode === 'light'
          ? lighten(alpha(theme.palette.divider, 1), 0.88)
          : theme.palette.divider
      }`,
    },
    '& td.data-cell-right': { textAlign: 'end' },
    '& td.data-cell-center': { textAlign: 'center' },
    '& td.data-cell-pinned': {
      ...pinnedCell(theme),
      zIndex: 1,
      // Opaque, so the columns scrolling under it do not show through.
      backgroundColor: theme.palette.background.paper,
    },
    '& tr.data-row:hover td.data-cell-pinned': {
      backgroundImage: `linear-gradient(${theme.palette.action.hover}, ${theme.palette.action.hover})`,
    },
  });

const PAGE_LABELS = {
  first: 'table.page.first',
  last: 'table.page.last',
  next: 'table.page.next',
  previous: 'table.page.previous',
} as const;

function statusOf<T>(
  props: DataTableProps<T>,
  rows: readonly T[],
): 'loading' | 'error' | 'empty' | null {
  if (props.error !== undefined && props.error !== null) return 'error';
  if (rows.length > 0) return null;
  return props.loading === true ? 'loading' : 'empty';
}
