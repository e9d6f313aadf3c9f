import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import { DataTable } from '../../../components/data-table/DataTable';
import { initialTableState } from '../../../components/data-table/list-params';
import { localPage } from '../../../components/data-table/local-page';
import type { DataColumn } from '../../../components/data-table/types';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { useDeviceLog, type DeviceLogLine } from '../api/device-log';
import { formatDateTime } from '../../../lib/format-date';

const LEVEL_COLOR = {
  error: 'error',
  warn: 'warning',
  info: 'info',
  debug: 'default',
} as const;

const levelColor = (level: string) =>
  level in LEVEL_COLOR ? LEVEL_COLOR[level as keyof typeof LEVEL_COLOR] : 'default';

/** The agent's log lines, newest first, searched and paged in the browser. */
export function DeviceLogTable({ deviceId }: { deviceId: number }) {
  const { t, i18n } = useTranslation();
  const [state, setState] = useState(() => initialTableState(25, [{ id: 'time', desc: true }]));
  const log = useDeviceLog(deviceId);
  const page = useMemo(
    () => localPage(log.data?.data ?? [], state, (line) => [line.msg, line.level]),
    [log.data, state],
  );
  const columns = useMemo<DataColumn<DeviceLogLine>[]>(
    () => [
      {
        id: 'time',
        header: t('monitoring.alerts.time'),
        sortable: true,
        width: 170,
        cell: (line) => (
          <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(line.time, i18n.language)}</span>
        ),
      },
      {
        id: 'level',
        header: t('monitoring.log.level'),
        sortable: true,
        width: 90,
        cell: (line) => <Chip size="small" color={levelColor(line.level)} label={line.level} />,
      },
      {
        id: 'msg',
        header: t('monitoring.alerts.message'),
        cell: (line) => (
          <span style={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>{line.msg}</span>
        ),
      },
    ],
    [t, i18n.language],
  );
  const error = log.isError ? apiErrorMessage(log.error) : null;
  return (
    <DataTable
      label={t('monitoring.log.title')}
      columns={columns}
      rows={page.rows}
      total={page.total}
      getRowId={(line) => String(line.id)}
      state={state}
      onStateChange={setState}
      loading={log.isFetching}
      error={errorText(error, t)}
      onRetry={() => void log.refetch()}
      emptyText={t('monitoring.log.empty')}
      height={420}
      rowHeight={40}
    />
  );
}
