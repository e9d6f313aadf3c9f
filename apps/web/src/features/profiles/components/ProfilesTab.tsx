import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import HistoryIcon from '@mui/icons-material/History';
import VisibilityIcon from '@mui/icons-material/Visibility';
import type { DeviceProfile } from '@palisade/contract';
import { DataTable } from '../../../components/data-table/DataTable';
import { initialTableState } from '../../../components/data-table/list-params';
import { localPage } from '../../../components/data-table/local-page';
import type { DataColumn } from '../../../components/data-table/types';
import { useConfirmedDelete } from '../../../components/page/useConfirmedDelete';
import { DateText } from '../../../components/page/DateText';
import { VersionHistoryDialog } from '../../../components/version-history/VersionHistoryDialog';
import { useDeleteProfile } from '../api/delete-profile';
import { profilesListKey, profilesListQueryOptions } from '../api/list-profiles';
import { ProfileDialog } from './ProfileDialog';
import { tableQueryStatus } from '../../../components/data-table/query-status';

const searchTexts = (p: DeviceProfile) => [
  p.name,
  p.description,
  ...Object.keys(p.variables),
  ...Object.values(p.variables),
];

/** Device variable profiles (spec §2 Firewall): list, key/value editor, delete. */
export function ProfilesTab({
  canWrite,
  canOverrideLockout,
}: {
  canWrite: boolean;
  /** Administrators may save or roll back a profile the lock-out check refused. */
  canOverrideLockout: boolean;
}) {
  const { t } = useTranslation();
  const [state, setState] = useState(() => initialTableState(25, [{ id: 'name', desc: false }]));
  const [editing, setEditing] = useState<DeviceProfile | null | undefined>(undefined);
  const [history, setHistory] = useState<DeviceProfile | null>(null);
  const list = useQuery(profilesListQueryOptions);
  const remove = useDeleteProfile();
  const { ask: askToDelete, dialog: deleteDialog } = useConfirmedDelete<DeviceProfile>(
    {
      title: 'profiles.deleteTitle',
      body: 'profiles.deleteBody',
      deleting: 'profiles.notices.deleting',
      deleted: 'profiles.notices.deleted',
      conflict: 'profiles.notices.inUse',
    },
    (id) => remove.mutateAsync(id),
  );
  const page = localPage(list.data?.data ?? [], state, searchTexts);

  const columns = useMemo<DataColumn<DeviceProfile>[]>(
    () => [
      { id: 'name', header: t('profiles.fields.name'), cell: (p) => p.name, sortable: true },
      {
        id: 'variables',
        header: t('profiles.columns.variables'),
        cell: (p) => (
          <Stack direction="row" sx={{ gap: 0.5, flexWrap: 'wrap' }}>
            {Object.keys(p.variables).map((name) => (
              <Chip key={name} size="small" variant="outlined" label={name} />
            ))}
          </Stack>
        ),
      },
      {
        id: 'device_count',
        header: t('profiles.columns.devices'),
        cell: (p) => p.device_count,
        sortable: true,
        align: 'right',
        width: 96,
      },
      {
        id: 'updated_at',
        header: t('profiles.columns.updated'),
        cell: (p) => <DateText value={p.updated_at} />,
        sortable: true,
        width: 140,
      },
      {
        id: 'actions',
        header: t('profiles.columns.actions'),
        align: 'right',
        width: 144,
        cell: (p) => (
          <>
            {canWrite ? (
              <>
                <IconButton
                  size="small"
                  aria-label={t('profiles.edit', { name: p.name })}
                  onClick={() => setEditing(p)}
                >
                  <EditIcon fontSize="small" />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={t('profiles.delete', { name: p.name })}
                  onClick={() => askToDelete(p)}
                >
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </>
            ) : (
              <IconButton
                size="small"
                aria-label={t('profiles.view', { name: p.name })}
                onClick={() => setEditing(p)}
              >
                <VisibilityIcon fontSize="small" />
              </IconButton>
            )}
            <IconButton
              size="small"
              aria-label={t('versions.historyOf', { name: p.name })}
              onClick={() => setHistory(p)}
            >
              <HistoryIcon fontSize="small" />
            </IconButton>
          </>
        ),
      },
    ],
    [t, canWrite, askToDelete],
  );

  return (
    <>
      {canWrite && (
        <Stack direction="row" sx={{ justifyContent: 'flex-end', mb: 2 }}>
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing(null)}>
            {t('profiles.create')}
          </Button>
        </Stack>
      )}
      <DataTable
        label={t('profiles.title')}
        columns={columns}
        rows={page.rows}
        total={page.total}
        getRowId={(p) => String(p.id)}
        state={state}
        onStateChange={setState}
        {...tableQueryStatus(list, t)}
        emptyText={t('profiles.empty')}
        height="calc(100vh - 380px)"
      />
      {editing !== undefined && (
        <ProfileDialog
          key={editing?.id ?? 'new'}
          profile={editing}
          readOnly={!canWrite}
          canOverrideLockout={canOverrideLockout}
          onClose={() => setEditing(undefined)}
        />
      )}
      <VersionHistoryDialog
        open={history !== null}
        name={history?.name ?? ''}
        base={`deviceconfigurationprofiles/${history?.id ?? 0}`}
        canRollBack={canWrite}
        canOverrideLockout={canOverrideLockout}
        invalidate={[profilesListKey]}
        onClose={() => setHistory(null)}
      />
      {deleteDialog}
    </>
  );
}
