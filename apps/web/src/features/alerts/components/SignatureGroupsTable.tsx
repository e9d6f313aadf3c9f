import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Link from '@mui/material/Link';
import type { AlertFilters } from '@palisade/contract';
import { DataTable } from '../../../components/data-table/DataTable';
import { initialTableState } from '../../../components/data-table/list-params';
import { localPage } from '../../../components/data-table/local-page';
import type { DataColumn } from '../../../components/data-table/types';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { alertGroupsQueryOptions, type SignatureGroup } from '../api/alert-groups';
import { formatDateTime } from '../../../lib/format-date';
import { SeverityChip } from './SeverityChip';

interface SignatureGroupsTableProps {
  filters: AlertFilters;
  /** Shows the alerts of one signature in the list. */
  onShowSignature: (sid: number) => void;
}

/** The grouped view: one row per signature with its count, devices, first and last seen. */
export function SignatureGroupsTable({ filters, onShowSignature }: SignatureGroupsTableProps) {
  const { t, i18n } = useTranslation();
  const [state, setState] = useState(() => initialTableState(25, [{ id: 'count', desc: true }]));
  const groups = useQuery(alertGroupsQueryOptions(filters));
  const page = useMemo(
    () => localPage(groups.data?.data ?? [], state, (g) => [g.msg ?? '', String(g.sid ?? '')]),
    [groups.data, state],
  );
  const number = useMemo(() => new Intl.NumberFormat(i18n.language), [i18n.language]);

  const columns = useMemo<DataColumn<SignatureGroup>[]>(
    () => [
      {
        id: 'sid',
        header: t('alerts.columns.sid'),
        sortable: true,
        width: 110,
        cell: (g) => (g.sid === null ? '–' : `${g.gid ?? 1}:${g.sid}`),
      },
      {
        id: 'msg',
        header: t('alerts.columns.message'),
        sortable: true,
        cell: (g) =>
          g.sid === null ? (
            (g.msg ?? '–')
          ) : (
            <Link
              component="button"
              type="button"
              underline="hover"
              sx={{ textAlign: 'start' }}
              aria-label={t('alerts.groups.show', { sid: g.sid })}
              onClick={() => g.sid !== null && onShowSignature(g.sid)}
            >
              {g.msg ?? t('alerts.noMessage')}
            </Link>
          ),
      },
      {
        id: 'severity',
        header: t('alerts.columns.severity'),
        sortable: true,
        width: 80,
        cell: (g) => <SeverityChip severity={g.severity} />,
      },
      {
        id: 'count',
        header: t('alerts.groups.count'),
        sortable: true,
        align: 'right',
        width: 90,
        cell: (g) => number.format(g.count),
      },
      {
        id: 'devices',
        header: t('alerts.groups.devices'),
        sortable: true,
        align: 'right',
        width: 90,
        cell: (g) => number.format(g.devices),
      },
      {
        id: 'first_seen',
        header: t('alerts.groups.firstSeen'),
        sortable: true,
        width: 170,
        cell: (g) => (
          <span style={{ whiteSpace: 'nowrap' }}>
            {formatDateTime(g.first_seen, i18n.language)}
          </span>
        ),
      },
      {
        id: 'last_seen',
        header: t('alerts.groups.lastSeen'),
        sortable: true,
        width: 170,
        cell: (g) => (
          <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(g.last_seen, i18n.language)}</span>
        ),
      },
    ],
    [t, i18n.language, number, onShowSignature],
  );

  const error = groups.isError ? apiErrorMessage(groups.error) : null;
  return (
    <DataTable
      label={t('alerts.groups.label')}
      columns={columns}
      rows={page.rows}
      total={page.total}
      getRowId={(g) => `${g.gid ?? ''}:${g.sid ?? ''}:${g.msg ?? ''}`}
      state={state}
      onStateChange={setState}
      loading={groups.isFetching}
      error={errorText(error, t)}
      onRetry={() => void groups.refetch()}
      emptyText={t('alerts.empty')}
      height="calc(100vh - 420px)"
    />
  );
}
