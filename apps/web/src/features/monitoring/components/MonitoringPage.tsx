import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import MonitorHeart from '@mui/icons-material/MonitorHeart';
import type { Device } from '@palisade/contract';
import { EmptyState } from '../../../components/page/EmptyState';
import { PageShell } from '../../../components/page/PageShell';
import { LIVE_DEVICES_MS, useLiveEvent } from '../../../lib/live-events';
import { deviceAlertsKey } from '../api/device-alerts';
import { monitoredDeviceKey } from '../api/get-device';
import { monitoringKey } from '../api/keys';
import { DEFAULT_WINDOW, isWindowId, type WindowId } from '../format';
import { DeviceDetail } from './DeviceDetail';
import { DevicesList } from './DevicesList';

const LIVE_INTERVAL_MS = 2000;

/**
 * /monitoring (spec §2): the devices list with search, and the selected device's status,
 * versions, last error, metric charts and last 100 alerts. The selection and chart window
 * live in the URL (?device=&window=); the live channel refreshes what is shown.
 */
export function MonitoringPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const selectedId = Number(params.get('device')) || null;
  const windowParam = params.get('window');
  const windowId: WindowId = isWindowId(windowParam) ? windowParam : DEFAULT_WINDOW;

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

  const select = useCallback(
    (device: Device, replace = false) =>
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          next.set('device', String(device.id));
          return next;
        },
        { replace },
      ),
    [setParams],
  );
  const changeWindow = (next: WindowId) =>
    setParams((previous) => {
      const updated = new URLSearchParams(previous);
      updated.set('window', next);
      return updated;
    });

  return (
    <PageShell title={t('nav.monitoring')}>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          alignItems: 'start',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(380px, 1fr) minmax(0, 2fr)' },
          '& > *': { minWidth: 0 },
        }}
      >
        <DevicesList selectedId={selectedId} onSelect={select} />
        {selectedId === null ? (
          <EmptyState
            icon={<MonitorHeart sx={{ fontSize: 48, color: 'primary.main' }} />}
            title={t('monitoring.pickTitle')}
            body={t('monitoring.pickBody')}
          />
        ) : (
          <DeviceDetail
            key={selectedId}
            deviceId={selectedId}
            windowId={windowId}
            onWindowChange={changeWindow}
          />
        )}
      </Box>
    </PageShell>
  );
}
