import { useTranslation } from 'react-i18next';
import TablePagination from '@mui/material/TablePagination';
import { ALL_ROWS, PAGE_SIZE_OPTIONS, type TableState } from './list-params';

interface DataTablePaginationProps {
  total: number;
  state: TableState;
  onStateChange: (next: TableState) => void;
}

const PAGE_LABELS = {
  first: 'table.page.first',
  last: 'table.page.last',
  next: 'table.page.next',
  previous: 'table.page.previous',
} as const;

/** Page and page size under the table; a new page size starts again at the first page. */
export function DataTablePagination({ total, state, onStateChange }: DataTablePaginationProps) {
  const { t } = useTranslation();
  return (
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
  );
}
