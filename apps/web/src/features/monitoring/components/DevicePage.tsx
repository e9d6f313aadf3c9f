import { Link as RouterLink, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { PageShell } from '../../../components/page/PageShell';
import { LIVE_DEVICES_MS, useLiveEvent } from '../../../lib/live-events';
import { deviceAlertsKey } from '../api/device-alerts';
import { monitoredDeviceKey, useMonitoredDevice } from '../api/get-device';
import { monitoringKey } from '../api/keys';
import { DEFAULT_WINDOW, isWindowId, type WindowId } from '../format';
import { DeviceDetail } from './DeviceDetail';

const LIVE_INTERVAL_MS = 2000;

/**
 * /devices/{id}: one sensor on a page of its own, as Monitoring shows the selected one: status,
 * versions, sensor health, and the health series beside CPU, memory, disk and network. The
 * chart window lives in the URL (?window=); the live channel refreshes what is shown.
 */
export function DevicePage({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const windowParam = params.get('window');
  const windowId: WindowId = isWindowId(windowParam) ? windowParam : DEFAULT_WINDOW;
  const device = useMonitoredDevice(deviceId);

  // A device's state, versions and pending flag show at once; its charts and log (a fleet
  // heartbeats all the time) are read again at most every LIVE_INTERVAL_MS.
  useLiveEvent('devices', () => void client.invalidateQueries({ queryKey: monitoredDeviceKey }), {
    minIntervalMs: LIVE_DEVICES_MS,
  });
  useLiveEvent(
    'devices',
    () => {
      void client.invalidateQueries({ queryKey: [...monitoringKey, 'monitor'] });
      void client.invalidateQueries({ queryKey: [...monitoringKey, 'log'] });
    },
    { minIntervalMs: LIVE_INTERVAL_MS },
  );
  useLiveEvent('alerts', () => void client.invalidateQueries({ queryKey: deviceAlertsKey }), {
    minIntervalMs: LIVE_INTERVAL_MS,
  });

  const changeWindow = (next: WindowId) =>
    setParams((previous) => {
      const updated = new URLSearchParams(previous);
      updated.set('window', next);
      return updated;
    });
  return (
    <PageShell
      title={device.data?.name ?? t('nav.devices')}
      actions={
        <Button component={RouterLink} to="/devices" startIcon={<ArrowBackIcon />}>
          {t('monitoring.backToDevices')}
        </Button>
      }
    >
      <DeviceDetail deviceId={deviceId} windowId={windowId} onWindowChange={changeWindow} />
    </PageShell>
  );
}
