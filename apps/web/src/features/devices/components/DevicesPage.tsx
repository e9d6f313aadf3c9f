import { useCallback, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import SyncIcon from '@mui/icons-material/Sync';
import TerminalIcon from '@mui/icons-material/Terminal';
import type { Device } from '@palisade/contract';
import { DataTable } from '../../../components/data-table/DataTable';
import { initialTableState } from '../../../components/data-table/list-params';
import { localPage } from '../../../components/data-table/local-page';
import type { DataColumn } from '../../../components/data-table/types';
import { notifyApiError } from '../../../components/notifications/notify';
import { withProgress } from '../../../components/notifications/queue';
import { useConfirmedDelete } from '../../../components/page/useConfirmedDelete';
import { PageShell } from '../../../components/page/PageShell';
import { formatDate } from '../../../lib/format-date';
import { useDeleteDevice } from '../api/delete-device';
import { useFlushDevice } from '../api/flush-device';
import { devicesListQueryOptions } from '../api/list-devices';
import { DeviceDialog } from './DeviceDialog';
import { DeviceStatusChips } from './DeviceStatusChips';
import { StartupDialog } from './StartupDialog';
import { nameOf, type DeviceTools } from './tools';
import { tableQueryStatus } from '../../../components/data-table/query-status';

/** How often the list is read again, so status chips follow the agents. */
const REFRESH_MS = 15_000;

/** /devices: the fleet with search, status chips, create/edit, flush, delete, start-up command. */
export function DevicesPage({ tools }: { tools: DeviceTools }) {
  const { t, i18n } = useTranslation();
  const [state, setState] = useState(() => initialTableState(25, [{ id: 'name', desc: false }]));
  const [editing, setEditing] = useState<Device | null | undefined>(undefined);
  const [startup, setStartup] = useState<{ device: Device; password: string | null } | null>(null);
  const list = useQuery({
    ...devicesListQueryOptions({ filter: state.search, sorting: state.sorting }),
    refetchInterval: REFRESH_MS,
  });
  const { mutateAsync: flushAsync } = useFlushDevice();
  const remove = useDeleteDevice();
  const { ask: askToDelete, dialog: deleteDialog } = useConfirmedDelete<Device>(
    {
      title: 'devices.deleteTitle',
      body: 'devices.deleteBody',
      deleting: 'devices.notices.deleting',
      deleted: 'devices.notices.deleted',
    },
    (id) => remove.mutateAsync(id),
  );
  // The server searched and sorted; the browser only pages.
  const page = localPage(list.data?.data ?? [], { ...state, search: '', sorting: [] }, () => []);
  const { canWrite } = tools;

  const flushDevice = useCallback(
    async (device: Device) => {
      try {
        await withProgress(
          { progress: 'devices.notices.flushing', success: 'devices.notices.flushed' },
          () => flushAsync(device.id),
        );
      } catch (failure) {
        notifyApiError(failure);
      }
    },
    [flushAsync],
  );

  const columns = useMemo<DataColumn<Device>[]>(
    () => [
      {
        id: 'name',
        header: t('devices.fields.name'),
        sortable: true,
        width: 200,
        cell: (d) => (
          <>
            <Typography variant="body2" sx={{ fontWeight: 500 }}>
              {d.name}
            </Typography>
            {d.description !== '' && (
              <Typography variant="caption" color="text.secondary">
                {d.description}
              </Typography>
            )}
          </>
        ),
      },
      {
        id: 'status',
        header: t('devices.columns.status'),
        cell: (d) => <DeviceStatusChips device={d} />,
      },
      {
        id: 'address',
        header: t('devices.fields.address'),
        sortable: true,
        cell: (d) => (
          <>
            <Typography variant="body2">{d.address}</Typography>
            <Typography variant="caption" color="text.secondary">
              {d.city}
            </Typography>
          </>
        ),
      },
      {
        id: 'policy',
        header: t('devices.fields.policy'),
        cell: (d) => nameOf(tools.policies, d.policy_id) ?? '—',
      },
      {
        id: 'profile',
        header: t('devices.fields.profile'),
        cell: (d) => nameOf(tools.profiles, d.profile_id) ?? '—',
      },
      {
        id: 'firewall',
        header: t('devices.fields.firewall'),
        cell: (d) => nameOf(tools.firewalls, d.firewall_id) ?? '—',
      },
      {
        id: 'last_seen',
        header: t('devices.columns.lastSeen'),
        sortable: true,
        cell: (d) =>
          d.last_seen === null ? (
            t('devices.never')
          ) : (
            <>
              <Typography variant="body2">{formatDate(d.last_seen, i18n.language)}</Typography>
              <Typography variant="caption" color="text.secondary">
                {new Date(d.last_seen).toLocaleTimeString(i18n.language)}
              </Typography>
            </>
          ),
      },
      {
        id: 'actions',
        header: t('devices.columns.actions'),
        align: 'right',
        width: canWrite ? 176 : 56,
        cell: (d) => (
          <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
            <Tooltip title={t('devices.startup.open')}>
              <IconButton
                size="small"
                aria-label={t('devices.startup.openFor', { name: d.name })}
                onClick={() => setStartup({ device: d, password: null })}
              >
                <TerminalIcon fontSize="small" />
              </IconButton>
            </Tooltip>
            {canWrite && (
              <>
                <Tooltip title={t('devices.flush')}>
                  <IconButton
                    size="small"
                    aria-label={t('devices.flushFor', { name: d.name })}
                    onClick={() => void flushDevice(d)}
                  >
                    <SyncIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
                <IconButton
                  size="small"
                  aria-label={t('devices.edit', { name: d.name })}
                  onClick={() => setEditing(d)}
                >
                  <EditIcon fontSize="small" />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={t('devices.delete', { name: d.name })}
                  onClick={() => askToDelete(d)}
                >
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </>
            )}
          </Stack>
        ),
      },
    ],
    [t, i18n.language, tools, canWrite, flushDevice, askToDelete],
  );

  const emptyText =
    state.search.trim() !== ''
      ? t('devices.noMatch')
      : canWrite
        ? t('devices.emptyWrite')
        : t('devices.empty');
  return (
    <PageShell
      title={t('nav.devices')}
      actions={
        canWrite && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing(null)}>
            {t('devices.create')}
          </Button>
        )
      }
    >
      <DataTable
        label={t('nav.devices')}
        columns={columns}
        rows={page.rows}
        total={page.total}
        getRowId={(d) => String(d.id)}
        state={state}
        onStateChange={setState}
        {...tableQueryStatus(list, t)}
        emptyText={emptyText}
        rowHeight={60}
      />
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
        {t('devices.searchHelp')}
      </Typography>
      {editing !== undefined && (
        <DeviceDialog
          key={editing?.id ?? 'new'}
          device={editing}
          tools={tools}
          onClose={() => setEditing(undefined)}
          onSecret={(device, password) => setStartup({ device, password })}
        />
      )}
      {startup !== null && (
        <StartupDialog
          device={startup.device}
          password={startup.password}
          onClose={() => setStartup(null)}
        />
      )}
      {deleteDialog}
    </PageShell>
  );
}
