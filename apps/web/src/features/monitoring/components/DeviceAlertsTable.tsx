import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import { DEVICE_ALERTS_SHOWN, type DeviceAlert } from '@palisade/contract';
import { DataTable } from '../../../components/data-table/DataTable';
import { initialTableState } from '../../../components/data-table/list-params';
import { localPage } from '../../../components/data-table/local-page';
import type { DataColumn } from '../../../components/data-table/types';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { useDeviceAlerts } from '../api/device-alerts';
import { formatDateTime } from '../../../lib/format-date';

const endpoint = (ip: string | null, port: number | null) =>
  ip === null ? '–' : port === null ? ip : ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;

/** Spec §2/§9: the table of the device's last 100 alerts, searched and sorted in the browser. */
export function DeviceAlertsTable({ deviceId }: { deviceId: number }) {
  const { t, i18n } = useTranslation();
  const [state, setState] = useState(() => initialTableState(25, [{ id: 'time', desc: true }]));
  const alerts = useDeviceAlerts(deviceId);
  const page = useMemo(
    () =>
      localPage(alerts.data?.data ?? [], state, (a) => [
        a.msg ?? '',
        String(a.sid ?? ''),
        a.src_ip ?? '',
        a.dest_ip ?? '',
        a.proto ?? '',
      ]),
    [alerts.data, state],
  );

  const columns = useMemo<DataColumn<DeviceAlert>[]>(
    () => [
      {
        id: 'time',
        header: t('monitoring.alerts.time'),
        sortable: true,
        width: 170,
        cell: (a) => (
          <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(a.time, i18n.language)}</span>
        ),
      },
      {
        id: 'severity',
        header: t('monitoring.alerts.severity'),
        sortable: true,
        width: 80,
        cell: (a) =>
          a.severity === null ? (
            '–'
          ) : (
            <Chip
              size="small"
              color={a.severity <= 1 ? 'error' : a.severity === 2 ? 'warning' : 'default'}
              label={a.severity}
            />
          ),
      },
      {
        id: 'sid',
        header: t('monitoring.alerts.sid'),
        sortable: true,
        width: 90,
        cell: (a) => a.sid ?? '–',
      },
      {
        id: 'msg',
        header: t('monitoring.alerts.message'),
        sortable: true,
        cell: (a) => a.msg ?? '–',
      },
      {
        id: 'src_ip',
        header: t('monitoring.alerts.source'),
        sortable: true,
        cell: (a) => endpoint(a.src_ip, a.src_port),
      },
      {
        id: 'dest_ip',
        header: t('monitoring.alerts.destination'),
        sortable: true,
        cell: (a) => endpoint(a.dest_ip, a.dest_port),
      },
      {
        id: 'proto',
        header: t('monitoring.alerts.proto'),
        sortable: true,
        width: 70,
        cell: (a) => a.proto ?? '–',
      },
    ],
    [t, i18n.language],
  );

  const error = alerts.isError ? apiErrorMessage(alerts.error) : null;
  return (
    <DataTable
      label={t('monitoring.alerts.title', { count: DEVICE_ALERTS_SHOWN })}
      columns={columns}
      rows={page.rows}
      total={page.total}
      getRowId={(a) => String(a.id)}
      state={state}
      onStateChange={setState}
      loading={alerts.isFetching}
      error={errorText(error, t)}
      onRetry={() => void alerts.refetch()}
      emptyText={t('monitoring.alerts.empty')}
      height={420}
      rowHeight={40}
    />
  );
}
