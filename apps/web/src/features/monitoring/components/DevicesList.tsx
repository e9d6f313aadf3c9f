import { useEffect, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Link from '@mui/material/Link';
import type { Device } from '@palisade/contract';
import { DataTable } from '../../../components/data-table/DataTable';
import { initialTableState } from '../../../components/data-table/list-params';
import { localPage } from '../../../components/data-table/local-page';
import type { DataColumn } from '../../../components/data-table/types';
import { monitoredDevicesQueryOptions, useMonitoredDevices } from '../api/list-devices';
import { refreshDevicesInView } from '../../../lib/devices-in-view';
import { LIVE_DEVICES_MS, useLiveEvent } from '../../../lib/live-events';
import { formatPercent } from '../format';
import { DeviceStatusChips } from './DeviceStatusChips';
import { tableQueryStatus } from '../../../components/data-table/query-status';

interface DevicesListProps {
  selectedId: number | null;
  /** `replace`: the first device chosen for the reader, not a step to go back to. */
  onSelect: (device: Device, replace?: boolean) => void;
}

/** Monitoring's devices list: searched by the server, paged and sorted here. */
export function DevicesList({ selectedId, onSelect }: DevicesListProps) {
  const { t, i18n } = useTranslation();
  const [state, setState] = useState(() => initialTableState(25, [{ id: 'name', desc: false }]));
  const list = useMonitoredDevices(state.search);
  const all = list.data?.data;
  const page = useMemo(
    () => localPage(all ?? [], { ...state, search: '' }, (d) => [d.name]),
    [all, state],
  );

  // A device reported: read again the rows in view (state, versions, pending), not the fleet.
  const client = useQueryClient();
  const key = monitoredDevicesQueryOptions(state.search).queryKey;
  const inView = useRef({ key, ids: [] as number[] });
  useEffect(() => {
    inView.current = { key, ids: page.rows.map((d) => d.id) };
  });
  useLiveEvent(
    'devices',
    () => void refreshDevicesInView(client, inView.current.key, inView.current.ids),
    { minIntervalMs: LIVE_DEVICES_MS },
  );

  // Nothing chosen yet: show the first device rather than an empty pane.
  const first = page.rows[0];
  useEffect(() => {
    if (selectedId === null && first !== undefined) onSelect(first, true);
  }, [selectedId, first, onSelect]);

  const columns = useMemo<DataColumn<Device>[]>(
    () => [
      {
        id: 'name',
        header: t('monitoring.columns.device'),
        sortable: true,
        cell: (d) => (
          <Link
            component="button"
            type="button"
            underline="hover"
            aria-pressed={d.id === selectedId}
            aria-label={t('monitoring.show', { name: d.name })}
            onClick={() => onSelect(d)}
            sx={{ fontWeight: d.id === selectedId ? 700 : 400, textAlign: 'start' }}
          >
            {d.name}
          </Link>
        ),
      },
      {
        id: 'online',
        header: t('monitoring.columns.status'),
        sortable: true,
        cell: (d) => <DeviceStatusChips device={d} />,
      },
      {
        id: 'cpu',
        header: t('monitoring.metrics.cpu'),
        align: 'right',
        width: 72,
        cell: (d) => (d.metrics === null ? '–' : formatPercent(d.metrics.cpu, i18n.language)),
      },
    ],
    [t, i18n.language, selectedId, onSelect],
  );

  return (
    <DataTable
      label={t('monitoring.devices')}
      columns={columns}
      rows={page.rows}
      total={page.total}
      getRowId={(d) => String(d.id)}
      state={state}
      onStateChange={setState}
      {...tableQueryStatus(list, t)}
      emptyText={state.search === '' ? t('monitoring.noDevices') : t('monitoring.noMatch')}
      height="calc(100vh - 330px)"
    />
  );
}
