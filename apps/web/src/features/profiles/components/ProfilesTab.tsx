import { useCallback, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import HistoryIcon from '@mui/icons-material/History';
import VisibilityIcon from '@mui/icons-material/Visibility';
import type { DeviceProfile } from '@palisade/contract';
import type { DataColumn } from '../../../components/data-table/types';
import { ListTab, type ListTabActions } from '../../../components/list-tab/ListTab';
import type { ConfirmedDeleteTexts } from '../../../components/page/useConfirmedDelete';
import { DateText } from '../../../components/page/DateText';
import { VersionHistoryDialog } from '../../../components/version-history/VersionHistoryDialog';
import { useDeleteProfile } from '../api/delete-profile';
import { profilesListKey, profilesListQueryOptions } from '../api/list-profiles';
import { ProfileDialog } from './ProfileDialog';

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
  const [history, setHistory] = useState<DeviceProfile | null>(null);
  const list = useQuery(profilesListQueryOptions);
  const remove = useDeleteProfile();
  const columns = useCallback(
    (actions: ListTabActions<DeviceProfile, DeviceProfile>) =>
      profileColumns({ t, canWrite, actions, showHistory: setHistory }),
    [t, canWrite],
  );
  return (
    <ListTab
      label={t('profiles.title')}
      list={list}
      columns={columns}
      searchTexts={searchTexts}
      emptyText={t('profiles.empty')}
      height="calc(100vh - 380px)"
      createLabel={canWrite ? t('profiles.create') : undefined}
      deleteTexts={deleteTexts}
      remove={(id) => remove.mutateAsync(id)}
      editor={(editing, close) =>
        editing !== null && (
          <ProfileDialog
            key={editing === 'new' ? 'new' : editing.id}
            profile={editing === 'new' ? null : editing}
            readOnly={!canWrite}
            canOverrideLockout={canOverrideLockout}
            onClose={close}
          />
        )
      }
    >
      <VersionHistoryDialog
        open={history !== null}
        name={history?.name ?? ''}
        base={`deviceconfigurationprofiles/${history?.id ?? 0}`}
        canRollBack={canWrite}
        canOverrideLockout={canOverrideLockout}
        invalidate={[profilesListKey]}
        onClose={() => setHistory(null)}
      />
    </ListTab>
  );
}

const deleteTexts: ConfirmedDeleteTexts = {
  title: 'profiles.deleteTitle',
  body: 'profiles.deleteBody',
  deleting: 'profiles.notices.deleting',
  deleted: 'profiles.notices.deleted',
  conflict: 'profiles.notices.inUse',
};

function profileColumns({
  t,
  canWrite,
  actions,
  showHistory,
}: {
  t: TFunction;
  canWrite: boolean;
  actions: ListTabActions<DeviceProfile, DeviceProfile>;
  showHistory: (profile: DeviceProfile) => void;
}): DataColumn<DeviceProfile>[] {
  return [
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
                onClick={() => actions.open(p)}
              >
                <EditIcon fontSize="small" />
              </IconButton>
              <IconButton
                size="small"
                aria-label={t('profiles.delete', { name: p.name })}
                onClick={() => actions.askToDelete(p)}
              >
                <DeleteIcon fontSize="small" />
              </IconButton>
            </>
          ) : (
            <IconButton
              size="small"
              aria-label={t('profiles.view', { name: p.name })}
              onClick={() => actions.open(p)}
            >
              <VisibilityIcon fontSize="small" />
            </IconButton>
          )}
          <IconButton
            size="small"
            aria-label={t('versions.historyOf', { name: p.name })}
            onClick={() => showHistory(p)}
          >
            <HistoryIcon fontSize="small" />
          </IconButton>
        </>
      ),
    },
  ];
}
