import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';

interface StatusRowProps {
  colSpan: number;
  status: 'loading' | 'error' | 'empty';
  error?: string | null;
  emptyText?: string;
  onRetry?: () => void;
}

/** The single row a table shows while loading, after an error, or when there is no data. */
export function StatusRow({ colSpan, status, error, emptyText, onRetry }: StatusRowProps) {
  const { t } = useTranslation();
  const text = (() => {
    switch (status) {
      case 'loading':
        return t('common.loading');
      case 'error':
        return error ?? t('errors.unknownBackend');
      case 'empty':
        return emptyText ?? t('table.noData');
    }
  })();
  return (
    <TableRow>
      <TableCell
        colSpan={colSpan}
        sx={{ py: 6, textAlign: 'center' }}
        data-testid={`table-${status}`}
      >
        <Typography color={status === 'error' ? 'error' : 'text.secondary'} component="span">
          {text}
        </Typography>
        {status === 'error' && onRetry !== undefined && (
          <Button onClick={onRetry} sx={{ mx: 2 }}>
            {t('common.retry')}
          </Button>
        )}
      </TableCell>
    </TableRow>
  );
}
