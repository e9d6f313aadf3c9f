import { useMemo, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import LibraryAddIcon from '@mui/icons-material/LibraryAdd';
import {
  RULE_SOURCE_STATUS_FILTERS,
  type RuleSource,
  type RuleSourceStatusFilter,
} from '@palisade/contract';
import { DataTable } from '../../../components/data-table/DataTable';
import { initialTableState } from '../../../components/data-table/list-params';
import { tableQueryStatus } from '../../../components/data-table/query-status';
import type { DataColumn } from '../../../components/data-table/types';
import { DateText } from '../../../components/page/DateText';
import { useConfirmedDelete } from '../../../components/page/useConfirmedDelete';
import { useDeleteSource } from '../api/delete-source';
import { sourcesListQueryOptions } from '../api/list-sources';
import { CatalogueDialog } from './CatalogueDialog';
import { SourceDialog, type SourceDialogTarget } from './SourceDialog';
import { UpdateNowButton } from './UpdateNowButton';
import { UpdateStatusChip } from './UpdateStatusChip';
import { STATUS_FILTER_LABELS } from './labels';
import { historyPath } from './paths';

/** The URL's `status` (the last-update filter), or null for every source. */
const statusParam = (value: string | null): RuleSourceStatusFilter | null =>
  RULE_SOURCE_STATUS_FILTERS.find((status) => status === value) ?? null;

/**
 * The organization's rule sources: status, schedule, "Update now", add, edit, delete;
 * `&status=failed` (succeeded, running, never) shows those whose last update ended so.
 */
export function SourceList({ canWrite }: { canWrite: boolean }) {
  const { t } = useTranslation();
  const [state, setState] = useState(() => initialTableState(25, [{ id: 'name', desc: false }]));
  const [editing, setEditing] = useState<SourceDialogTarget | null>(null);
  const [browsing, setBrowsing] = useState(false);
  const [params, setParams] = useSearchParams();
  const status = statusParam(params.get('status'));
  const list = useQuery(sourcesListQueryOptions(state, status));
  const filterBy = (next: RuleSourceStatusFilter | null) => {
    setParams(
      (previous) => {
        const updated = new URLSearchParams(previous);
        if (next === null) updated.delete('status');
        else updated.set('status', next);
        return updated;
      },
      { replace: true },
    );
    setState((previous) => ({ ...previous, pageIndex: 0 }));
  };
  const remove = useDeleteSource();
  const { ask: askToDelete, dialog: deleteDialog } = useConfirmedDelete<RuleSource>(
    {
      title: 'ruleSources.deleteTitle',
      body: 'ruleSources.deleteBody',
      deleting: 'ruleSources.notices.deleting',
      deleted: 'ruleSources.notices.deleted',
    },
    (id) => remove.mutateAsync(id),
  );
  const rows = useMemo(() => list.data?.data ?? [], [list.data]);
  const added = useMemo(
    () => new Set(rows.flatMap((s) => (s.catalogue_id === null ? [] : [s.catalogue_id]))),
    [rows],
  );

  const columns = useMemo(
    () =>
      sourceColumns({
        t,
        canWrite,
        onEdit: (source) => setEditing({ source }),
        onDelete: askToDelete,
      }),
    [t, canWrite, askToDelete],
  );

  return (
    <>
      <Box sx={{ display: 'flex', gap: 1, mb: 2, flexWrap: 'wrap', alignItems: 'center' }}>
        {canWrite && (
          <>
            <Button
              variant="contained"
              startIcon={<LibraryAddIcon />}
              onClick={() => setBrowsing(true)}
            >
              {t('ruleSources.addFromCatalogue')}
            </Button>
            <Button
              variant="outlined"
              startIcon={<AddIcon />}
              onClick={() => setEditing({ custom: true })}
            >
              {t('ruleSources.addCustom')}
            </Button>
          </>
        )}
        <TextField
          select
          size="small"
          label={t('ruleSources.statusFilter.label')}
          value={status ?? ''}
          onChange={(event) => filterBy(statusParam(event.target.value))}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          sx={{ minWidth: 200, marginInlineStart: 'auto' }}
        >
          <MenuItem value="">{t('ruleSources.statusFilter.all')}</MenuItem>
          {RULE_SOURCE_STATUS_FILTERS.map((option) => (
            <MenuItem key={option} value={option}>
              {t(STATUS_FILTER_LABELS[option])}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <DataTable
        label={t('ruleSources.title')}
        columns={columns}
        rows={rows}
        total={list.data?.recordsTotal ?? 0}
        getRowId={(s) => String(s.id)}
        state={state}
        onStateChange={setState}
        {...tableQueryStatus(list, t)}
        emptyText={
          state.search === '' && status === null ? t('ruleSources.empty') : t('table.noData')
        }
      />
      <CatalogueDialog
        open={browsing}
        added={added}
        onClose={() => setBrowsing(false)}
        onPick={(entry) => {
          setBrowsing(false);
          setEditing({ entry });
        }}
      />
      <SourceDialog target={editing} onClose={() => setEditing(null)} />
      {deleteDialog}
    </>
  );
}

function sourceColumns({
  t,
  canWrite,
  onEdit,
  onDelete,
}: {
  t: TFunction;
  canWrite: boolean;
  onEdit: (source: RuleSource) => void;
  onDelete: (source: RuleSource) => void;
}): DataColumn<RuleSource>[] {
  return [
    {
      id: 'name',
      header: t('ruleSources.name'),
      sortable: true,
      cell: (s) => (
        <Link component={RouterLink} to={historyPath(s.id)}>
          {s.name}
        </Link>
      ),
    },
    {
      id: 'status',
      header: t('ruleSources.lastUpdate'),
      width: 150,
      cell: (s) => <UpdateStatusChip update={s.last_update} />,
    },
    {
      id: 'last_checked_at',
      header: t('ruleSources.lastChecked'),
      sortable: true,
      width: 130,
      hideBelow: 700,
      cell: (s) => (s.last_checked_at === null ? '—' : <DateText value={s.last_checked_at} />),
    },
    {
      id: 'next_update_at',
      header: t('ruleSources.nextUpdate'),
      sortable: true,
      width: 130,
      hideBelow: 800,
      cell: (s) =>
        s.next_update_at === null ? (
          t('ruleSources.scheduleKind.manual')
        ) : (
          <DateText value={s.next_update_at} />
        ),
    },
    {
      id: 'rule_count',
      header: t('ruleSources.ruleCount'),
      sortable: true,
      align: 'right',
      width: 90,
      cell: (s) => s.rule_count,
    },
    {
      id: 'enabled',
      header: t('ruleSources.enabled'),
      sortable: true,
      width: 100,
      cell: (s) => (
        <Chip
          size="small"
          variant="outlined"
          color={s.enabled ? 'success' : 'default'}
          label={s.enabled ? t('common.yes') : t('common.no')}
        />
      ),
    },
    {
      id: 'actions',
      header: t('rules.columns.actions'),
      align: 'right',
      width: canWrite ? 250 : 60,
      pinned: 'end',
      cell: (s) => (
        <Box sx={{ display: 'inline-flex', gap: 0.5, alignItems: 'center' }}>
          {canWrite && <UpdateNowButton source={s} />}
          {canWrite && (
            <>
              <Tooltip title={t('ruleSources.edit')}>
                <IconButton
                  size="small"
                  aria-label={t('ruleSources.editName', { name: s.name })}
                  onClick={() => onEdit(s)}
                >
                  <EditIcon fontSize="small" />
                </IconButton>
              </Tooltip>
              <Tooltip title={t('common.delete')}>
                <IconButton
                  size="small"
                  aria-label={t('ruleSources.deleteName', { name: s.name })}
                  onClick={() => onDelete(s)}
                >
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </>
          )}
        </Box>
      ),
    },
  ];
}
