import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { RuleSourceUpdateSummary } from '@palisade/contract';
import { DataTable } from '../../../components/data-table/DataTable';
import { initialTableState } from '../../../components/data-table/list-params';
import { tableQueryStatus } from '../../../components/data-table/query-status';
import type { DataColumn } from '../../../components/data-table/types';
import { formatDateTime } from '../../../lib/format-date';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { sourceQueryOptions } from '../api/get-source';
import { updatesListQueryOptions } from '../api/list-updates';
import { SourceHeader } from './SourceHeader';
import { UpdateNowButton } from './UpdateNowButton';
import { UpdateStatusChip } from './UpdateStatusChip';
import { changelogPath } from './paths';

const count = (n: number) => (n === 0 ? '—' : n);

/** One source's updates, newest first: when, why, what they changed, or why they failed. */
export function SourceHistory({ sourceId, canWrite }: { sourceId: number; canWrite: boolean }) {
  const { t, i18n } = useTranslation();
  const [state, setState] = useState(() => initialTableState(25));
  const source = useQuery(sourceQueryOptions(sourceId));
  const updates = useQuery(updatesListQueryOptions(sourceId, state));
  const sourceError = errorText(source.isError ? apiErrorMessage(source.error) : null, t);

  const columns = useMemo<DataColumn<RuleSourceUpdateSummary>[]>(
    () => [
      {
        id: 'created_at',
        header: t('ruleSources.history.started'),
        width: 230,
        cell: (u) => (
          <Link
            component={RouterLink}
            to={changelogPath(sourceId, u.id)}
            aria-label={t('ruleSources.history.openChangelog', { id: u.id })}
          >
            {formatDateTime(u.started_at ?? u.created_at, i18n.language)}
          </Link>
        ),
      },
      {
        id: 'trigger',
        header: t('ruleSources.history.trigger'),
        width: 130,
        hideBelow: 800,
        cell: (u) =>
          u.trigger === 'schedule'
            ? t('ruleSources.history.bySchedule')
            : (u.requested_by ?? t('ruleSources.history.byHand')),
      },
      {
        id: 'status',
        header: t('ruleSources.history.status'),
        width: 140,
        cell: (u) => <UpdateStatusChip update={u} />,
      },
      {
        id: 'added',
        header: t('ruleSources.kind.added'),
        align: 'right',
        width: 80,
        cell: (u) => count(u.added),
      },
      {
        id: 'removed',
        header: t('ruleSources.kind.removed'),
        align: 'right',
        width: 80,
        cell: (u) => count(u.removed),
      },
      {
        id: 'changed',
        header: t('ruleSources.kind.changed'),
        align: 'right',
        width: 80,
        cell: (u) => count(u.changed),
      },
      {
        id: 'toggled',
        header: t('ruleSources.history.toggled'),
        align: 'right',
        width: 110,
        hideBelow: 900,
        cell: (u) => (u.enabled + u.disabled === 0 ? '—' : `+${u.enabled} / −${u.disabled}`),
      },
      {
        id: 'policies_bumped',
        header: t('ruleSources.history.policies'),
        align: 'right',
        width: 90,
        hideBelow: 900,
        cell: (u) => count(u.policies_bumped),
      },
      {
        id: 'error',
        header: t('ruleSources.history.error'),
        cell: (u) =>
          u.error ??
          (u.warning_count > 0 ? t('ruleSources.history.warnings', { n: u.warning_count }) : ''),
      },
    ],
    [t, i18n.language, sourceId],
  );

  return (
    <>
      <SourceHeader
        source={source.data}
        actions={canWrite && source.data !== undefined && <UpdateNowButton source={source.data} />}
      />
      {sourceError !== null && <Alert severity="error">{sourceError}</Alert>}
      {source.data !== undefined && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} dir="ltr">
          {source.data.url}
        </Typography>
      )}
      <DataTable
        label={t('ruleSources.history.title')}
        columns={columns}
        rows={updates.data?.data ?? []}
        total={updates.data?.recordsTotal ?? 0}
        getRowId={(u) => String(u.id)}
        state={state}
        onStateChange={setState}
        searchable={false}
        {...tableQueryStatus(updates, t)}
        emptyText={t('ruleSources.history.empty')}
      />
    </>
  );
}
