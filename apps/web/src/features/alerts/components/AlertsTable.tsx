import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import type { Alert, AlertFilters } from '@palisade/contract';
import { DataTable } from '../../../components/data-table/DataTable';
import { ALL_ROWS, type TableState } from '../../../components/data-table/list-params';
import type { DataColumn } from '../../../components/data-table/types';
import { notifyApiError, notifySuccess } from '../../../components/notifications/notify';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { useAcknowledgeAlerts } from '../api/ack-alerts';
import { alertPageQueryOptions } from '../api/list-alerts';
import { endpoint, formatDateTime } from '../format';
import { beforeOf, firstPage, footerTotal, movePage } from '../keyset';
import { SeverityChip } from './SeverityChip';

/** The most the API returns per page; the footer's 'All' asks for this many. */
const MAX_PAGE = 5000;
const DEFAULT_PAGE = 100;

interface AlertsTableProps {
  filters: AlertFilters;
  canWrite: boolean;
  onOpen: (alert: Alert) => void;
}

/** The alerts list, newest first, paged by keyset (see keyset.ts): deep pages cost what page 1 does. */
export function AlertsTable({ filters, canWrite, onOpen }: AlertsTableProps) {
  const { t, i18n } = useTranslation();
  const [keyset, setKeyset] = useState(() => firstPage(DEFAULT_PAGE));
  const { pageIndex, pageSize } = keyset;
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const limit = pageSize === ALL_ROWS ? MAX_PAGE : pageSize;
  const before = beforeOf(keyset);
  const page = useQuery(alertPageQueryOptions({ filters, before, limit }));
  const ack = useAcknowledgeAlerts();

  // A new filter starts from the newest page again.
  const [seenFilters, setSeenFilters] = useState(filters);
  if (seenFilters !== filters) {
    setSeenFilters(filters);
    setKeyset(firstPage(pageSize));
    setSelected(new Set());
  }

  const rows = useMemo(() => page.data?.data ?? [], [page.data]);
  const visibleIds = rows.map((a) => a.id);
  const chosen = visibleIds.filter((id) => selected.has(id));

  const toggle = (id: number) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const columns = useMemo<DataColumn<Alert>[]>(() => {
    const list: DataColumn<Alert>[] = [
      {
        id: 'time',
        header: t('alerts.columns.time'),
        width: 170,
        cell: (a) => (
          <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(a.time, i18n.language)}</span>
        ),
      },
      { id: 'device', header: t('alerts.columns.device'), cell: (a) => a.device },
      {
        id: 'severity',
        header: t('alerts.columns.severity'),
        width: 70,
        cell: (a) => <SeverityChip severity={a.severity} />,
      },
      { id: 'sid', header: t('alerts.columns.sid'), width: 90, cell: (a) => a.sid ?? '–' },
      {
        id: 'msg',
        header: t('alerts.columns.message'),
        cell: (a) => (
          <Link
            component="button"
            type="button"
            underline="hover"
            onClick={() => onOpen(a)}
            data-testid="alert-open"
            sx={{ textAlign: 'start' }}
          >
            {a.msg ?? t('alerts.noMessage')}
          </Link>
        ),
      },
      {
        id: 'src',
        header: t('alerts.columns.source'),
        cell: (a) => endpoint(a.src_ip, a.src_port),
      },
      {
        id: 'dest',
        header: t('alerts.columns.destination'),
        cell: (a) => endpoint(a.dest_ip, a.dest_port),
      },
      { id: 'proto', header: t('alerts.columns.proto'), width: 70, cell: (a) => a.proto ?? '–' },
      {
        id: 'acknowledged',
        header: t('alerts.columns.state'),
        width: 120,
        cell: (a) =>
          a.acknowledged ? (
            <Chip size="small" variant="outlined" label={t('alerts.state.acknowledged')} />
          ) : (
            <Chip size="small" color="info" label={t('alerts.state.new')} />
          ),
      },
    ];
    if (!canWrite) return list;
    return [
      {
        id: 'select',
        header: '',
        width: 48,
        cell: (a) => (
          <Checkbox
            size="small"
            checked={selected.has(a.id)}
            onChange={() => toggle(a.id)}
            slotProps={{ input: { 'aria-label': t('alerts.select', { id: a.id }) } }}
          />
        ),
      },
      ...list,
    ];
  }, [t, i18n.language, canWrite, selected, onOpen]);

  const total = page.data?.recordsTotal ?? 0;
  const state: TableState = { pageIndex, pageSize, sorting: [], search: '' };
  const onStateChange = (next: TableState) =>
    setKeyset(movePage(keyset, next, page.data?.next_cursor));

  const acknowledge = async (acknowledged: boolean) => {
    try {
      await ack.mutateAsync({ ids: chosen, acknowledged });
      notifySuccess(acknowledged ? 'alerts.ack.done' : 'alerts.ack.reopened');
      setSelected(new Set());
    } catch (failure) {
      notifyApiError(failure);
    }
  };

  const error = page.isError ? apiErrorMessage(page.error) : null;
  const shownTotal = footerTotal({
    pageIndex,
    limit,
    rows: rows.length,
    recordsTotal: total,
    nextCursor: page.data?.next_cursor,
  });
  return (
    <Box>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          flexWrap: 'wrap',
          mb: 1,
          minHeight: 40,
        }}
      >
        {canWrite && (
          <>
            <FormControlLabel
              control={
                <Checkbox
                  size="small"
                  checked={chosen.length > 0 && chosen.length === visibleIds.length}
                  indeterminate={chosen.length > 0 && chosen.length < visibleIds.length}
                  onChange={(event) =>
                    setSelected(event.target.checked ? new Set(visibleIds) : new Set())
                  }
                />
              }
              label={t('alerts.selectPage')}
            />
            <Button
              size="small"
              variant="outlined"
              startIcon={<DoneAllIcon />}
              disabled={chosen.length === 0 || ack.isPending}
              onClick={() => void acknowledge(true)}
            >
              {t('alerts.ack.selected', { count: chosen.length })}
            </Button>
            <Button
              size="small"
              startIcon={<RestartAltIcon />}
              disabled={chosen.length === 0 || ack.isPending}
              onClick={() => void acknowledge(false)}
            >
              {t('alerts.ack.reopenSelected', { count: chosen.length })}
            </Button>
          </>
        )}
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ marginInlineStart: 'auto' }}
          data-testid="alerts-total"
        >
          {page.data === undefined
            ? ''
            : page.data.recordsTotalIsExact
              ? t('alerts.total', { count: total })
              : t('alerts.totalAtLeast', { count: total })}
        </Typography>
      </Box>
      <DataTable
        label={t('alerts.listLabel')}
        columns={columns}
        rows={rows}
        total={shownTotal}
        getRowId={(a) => String(a.id)}
        state={state}
        onStateChange={onStateChange}
        loading={page.isFetching}
        error={errorText(error, t)}
        onRetry={() => void page.refetch()}
        emptyText={t('alerts.empty')}
        searchable={false}
        height="calc(100vh - 420px)"
        rowHeight={44}
      />
    </Box>
  );
}
