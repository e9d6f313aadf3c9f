import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import MuiAlert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { DEVICE_ALERTS_SHOWN } from '@palisade/contract';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { useMonitoredDevice } from '../api/get-device';
import type { WindowId } from '../format';
import { DeviceAlertsTable } from './DeviceAlertsTable';
import { DeviceLogTable } from './DeviceLogTable';
import { DeviceSummary } from './DeviceSummary';
import { MetricsCharts } from './MetricsCharts';

interface DeviceDetailProps {
  deviceId: number;
  windowId: WindowId;
  onWindowChange: (next: WindowId) => void;
}
/** One device: status, versions local vs remote, last error, metrics and its last alerts. */
export function DeviceDetail({ deviceId, windowId, onWindowChange }: DeviceDetailProps) {
  const { t } = useTranslation();
  const device = useMonitoredDevice(deviceId);
  const [tab, setTab] = useState<'alerts' | 'log'>('alerts');
  if (device.isError) {
    const error = apiErrorMessage(device.error);
    return <MuiAlert severity="error">{errorText(error, t)}</MuiAlert>;
  }
  if (device.data === undefined) return <Skeleton variant="rounded" height={320} />;
  const d = device.data;
  return (
    <Box
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'minmax(0, 1fr)' }}
      data-testid="device-detail"
    >
      <DeviceSummary device={d} />
      <MetricsCharts deviceId={d.id} windowId={windowId} onWindowChange={onWindowChange} />
      <Box component="section">
        <Tabs
          value={tab}
          onChange={(_event, next: 'alerts' | 'log') => setTab(next)}
          aria-label={t('monitoring.reports')}
          sx={{ mb: 1 }}
        >
          <Tab
            value="alerts"
            label={t('monitoring.alerts.title', { count: DEVICE_ALERTS_SHOWN })}
            id="device-tab-alerts"
          />
          <Tab value="log" label={t('monitoring.log.title')} id="device-tab-log" />
        </Tabs>
        <div role="tabpanel" aria-labelledby={`device-tab-${tab}`}>
          {tab === 'alerts' ? (
            <DeviceAlertsTable deviceId={d.id} />
          ) : (
            <DeviceLogTable deviceId={d.id} />
          )}
        </div>
      </Box>
    </Box>
  );
}
