import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import AddIcon from '@mui/icons-material/Add';
import { DataTable } from '../../../components/data-table/DataTable';
import { initialTableState } from '../../../components/data-table/list-params';
import { localPage } from '../../../components/data-table/local-page';
import { notifyApiError } from '../../../components/notifications/notify';
import { withProgress } from '../../../components/notifications/queue';
import { useConfirmedDelete } from '../../../components/page/useConfirmedDelete';
import { PageShell } from '../../../components/page/PageShell';
import { agentReleaseQueryOptions } from '../api/agent-release';
import { useDeleteDevice } from '../api/delete-device';
import { useFlushDevice } from '../api/flush-device';
import { devicesListQueryOptions } from '../api/list-devices';
import type { Device } from '@palisade/contract';
import { upgradable } from './agent-upgrade';
import { DeviceDialog } from './DeviceDialog';
import { EnrolDialog } from './EnrolDialog';
import type { DeviceTools } from './tools';
import { useAgentUpgrades } from './useAgentUpgrades';
import { useDeviceColumns, type DeviceRowActions, type DeviceSelection } from './useDeviceColumns';
import { tableQueryStatus } from '../../../components/data-table/query-status';
import { refreshDevicesInView } from '../../../lib/devices-in-view';
import { LIVE_DEVICES_MS, useLiveEvent } from '../../../lib/live-events';

/**
 * How often the whole list is read again (devices added or removed elsewhere); the rows in view
 * follow the agents through the live channel.
 */
const REFRESH_MS = 15_000;

/** /devices: the fleet with search, status chips, create/edit, enrol, flush, delete, upgrades. */
export function DevicesPage({ tools }: { tools: DeviceTools }) {
  const { t } = useTranslation();
  // ?q= opens the list searched (the Home dashboard links here with `online:false` and such).
  const [params] = useSearchParams();
  const [state, setState] = useState(() => ({
    ...initialTableState(25, [{ id: 'name', desc: false }]),
    search: params.get('q') ?? '',
  }));
  const [editing, setEditing] = useState<Device | null | undefined>(undefined);
  const [enrolling, setEnrolling] = useState<{
    device: Device;
    password: string | null;
    /** After an edit that set a password: the manual way is what that password is for. */
    manual: boolean;
  } | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const listOptions = devicesListQueryOptions({ filter: state.search, sorting: state.sorting });
  const list = useQuery({ ...listOptions, refetchInterval: REFRESH_MS });
  const release = useQuery(agentReleaseQueryOptions);
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
  const clearSelection = useCallback(() => setSelected(new Set()), []);
  const { ask: askToUpgrade, dialog: upgradeDialog } = useAgentUpgrades(clearSelection);
  // The server searched and sorted; the browser only pages.
  const devices = list.data?.data ?? [];
  const page = localPage(devices, { ...state, search: '', sorting: [] }, () => []);
  useRefreshInView(listOptions.queryKey, page.rows);
  const { canWrite, canUpgrade } = tools;

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

  const actions = useMemo<DeviceRowActions>(
    () => ({
      enrol: (device) => setEnrolling({ device, password: null, manual: false }),
      flush: (device) => void flushDevice(device),
      edit: setEditing,
      remove: askToDelete,
      upgrade: (device) => askToUpgrade({ kind: 'one', id: device.id, name: device.name }),
    }),
    [flushDevice, askToDelete, askToUpgrade],
  );
  const selection = useMemo<DeviceSelection | undefined>(
    () =>
      canUpgrade
        ? {
            isSelected: (device) => selected.has(device.id),
            toggle: (device, on) =>
              setSelected((previous) => {
                const next = new Set(previous);
                if (on) next.add(device.id);
                else next.delete(device.id);
                return next;
              }),
          }
        : undefined,
    [canUpgrade, selected],
  );
  const columns = useDeviceColumns({
    tools,
    actions,
    selection,
    serverAgentVersion: release.data?.version ?? null,
  });

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
      {canUpgrade && (
        <UpgradeBar
          selected={selected}
          searching={state.search.trim() !== ''}
          anyOutdated={devices.some(upgradable)}
          askToUpgrade={askToUpgrade}
          onClear={clearSelection}
        />
      )}
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
        // Under the search syntax every list takes: the field:value terms of this one.
        searchHint={t('devices.searchHelp')}
        rowHeight={60}
      />
      {editing !== undefined && (
        <DeviceDialog
          key={editing?.id ?? 'new'}
          device={editing}
          tools={tools}
          onClose={() => setEditing(undefined)}
          onSecret={(device, password) =>
            setEnrolling({ device, password, manual: editing !== null })
          }
        />
      )}
      {enrolling !== null && (
        <EnrolDialog
          device={enrolling.device}
          password={enrolling.password}
          manualOpen={enrolling.manual}
          onClose={() => setEnrolling(null)}
        />
      )}
      {deleteDialog}
      {upgradeDialog}
    </PageShell>
  );
}

interface UpgradeBarProps {
  selected: ReadonlySet<number>;
  searching: boolean;
  /** Some device in the list runs an older agent than the server offers. */
  anyOutdated: boolean;
  askToUpgrade: ReturnType<typeof useAgentUpgrades>['ask'];
  onClear: () => void;
}

/** Agent upgrades over the list: the selected devices, or every outdated one. */
function UpgradeBar({ selected, searching, anyOutdated, askToUpgrade, onClear }: UpgradeBarProps) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" sx={{ mb: 1, gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
      <Button
        size="small"
        variant="outlined"
        disabled={selected.size === 0}
        onClick={() => askToUpgrade({ kind: 'selected', ids: [...selected] })}
      >
        {t('devices.upgrade.selected', { n: selected.size })}
      </Button>
      <Button
        size="small"
        variant="outlined"
        // A search may hide outdated devices; the server finds them all.
        disabled={!searching && !anyOutdated}
        onClick={() => askToUpgrade({ kind: 'allOutdated' })}
      >
        {t('devices.upgrade.allOutdated')}
      </Button>
      <Button size="small" disabled={selected.size === 0} onClick={onClear}>
        {t('devices.clearSelection')}
      </Button>
    </Stack>
  );
}

/** A device reported: read again the rows in view (state, versions, pending), not the fleet. */
function useRefreshInView(key: QueryKey, rows: Device[]) {
  const client = useQueryClient();
  const inView = useRef({ key, ids: [] as number[] });
  useEffect(() => {
    inView.current = { key, ids: rows.map((d) => d.id) };
  });
  useLiveEvent(
    'devices',
    () => void refreshDevicesInView(client, inView.current.key, inView.current.ids),
    { minIntervalMs: LIVE_DEVICES_MS },
  );
}
