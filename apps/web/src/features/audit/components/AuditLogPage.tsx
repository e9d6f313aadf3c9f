import { Fragment, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import type { AuditRecord } from '@palisade/contract';
import { notifyApiError } from '../../../components/notifications/notify';
import { PageShell } from '../../../components/page/PageShell';
import { formatDateTime } from '../../../lib/format-date';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { exportAudit } from '../api/export-audit';
import { auditListQueryOptions, type AuditFilters } from '../api/list-audit';
import { AuditChange } from './AuditChange';
import { AuditFilterBar } from './AuditFilterBar';

const FILTER_KEYS = ['actor', 'action', 'object_type', 'object_id', 'from', 'to'] as const;

const code = { fontFamily: 'monospace', fontSize: 13 } as const;

function RecordRow({ record }: { record: AuditRecord }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const object = [
    record.object_type,
    record.object_name,
    record.object_id && `#${record.object_id}`,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <>
      <TableRow
        data-testid="audit-row"
        hover
        sx={{ '& > td': { borderBottom: open ? 0 : undefined } }}
      >
        <TableCell padding="checkbox">
          <IconButton
            size="small"
            aria-expanded={open}
            aria-label={t('audit.expand', { id: record.id })}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? <KeyboardArrowUpIcon /> : <KeyboardArrowDownIcon />}
          </IconButton>
        </TableCell>
        <TableCell>{formatDateTime(record.at, i18n.language)}</TableCell>
        <TableCell>
          {record.actor_kind === 'user' ? '' : `${record.actor_kind}: `}
          {record.actor_name}
        </TableCell>
        <TableCell sx={code}>{record.action}</TableCell>
        <TableCell dir="auto">{object}</TableCell>
      </TableRow>
      {open ? (
        <TableRow>
          <TableCell colSpan={5}>
            <AuditChange record={record} />
          </TableCell>
        </TableRow>
      ) : null}
    </>
  );
}

/** /audit: the organization's audit log, filtered by the URL, newest first, page by page. */
export function AuditLogPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const filters = useMemo<AuditFilters>(
    () =>
      Object.fromEntries(
        FILTER_KEYS.flatMap((key) => {
          const value = params.get(key);
          return value ? [[key, value]] : [];
        }),
      ),
    [params],
  );
  const log = useInfiniteQuery(auditListQueryOptions(filters));
  const records = log.data?.pages.flatMap((page) => page.data) ?? [];
  const failure = errorText(log.isError ? apiErrorMessage(log.error) : null, t);

  const apply = (next: AuditFilters) =>
    setParams(
      Object.fromEntries(
        Object.entries(next).filter((entry): entry is [string, string] => Boolean(entry[1])),
      ),
    );
  const download = (format: 'csv' | 'json') => {
    exportAudit(filters, format).catch(notifyApiError);
  };

  return (
    <PageShell
      title={t('audit.title')}
      actions={
        <Stack direction="row" sx={{ gap: 1 }}>
          <Button startIcon={<DownloadIcon />} onClick={() => download('csv')}>
            {t('audit.export.csv')}
          </Button>
          <Button startIcon={<DownloadIcon />} onClick={() => download('json')}>
            {t('audit.export.json')}
          </Button>
        </Stack>
      }
    >
      <AuditFilterBar key={params.toString()} filters={filters} onApply={apply} />
      {failure ? <Alert severity="error">{failure}</Alert> : null}
      <TableContainer>
        <Table size="small" aria-label={t('audit.title')}>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox" />
              <TableCell>{t('audit.columns.at')}</TableCell>
              <TableCell>{t('audit.columns.actor')}</TableCell>
              <TableCell>{t('audit.columns.action')}</TableCell>
              <TableCell>{t('audit.columns.object')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {records.map((record) => (
              <Fragment key={record.id}>
                <RecordRow record={record} />
              </Fragment>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {log.isSuccess && records.length === 0 ? (
        <Typography sx={{ p: 2 }} color="text.secondary">
          {t('audit.empty')}
        </Typography>
      ) : null}
      {log.isPending ? <Typography sx={{ p: 2 }}>{t('common.loading')}</Typography> : null}
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
        {log.hasNextPage ? (
          <Button
            variant="outlined"
            disabled={log.isFetchingNextPage}
            onClick={() => void log.fetchNextPage()}
          >
            {t('audit.loadMore')}
          </Button>
        ) : null}
      </Box>
    </PageShell>
  );
}
