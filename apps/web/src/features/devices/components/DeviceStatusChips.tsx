import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import type { Device } from '@palisade/contract';
import { DeviceHealthChip } from './DeviceHealthCells';
import { deviceStatuses, STATUS_KEY, type DeviceStatusLabel } from './device-status';

const COLOR: Record<DeviceStatusLabel, 'warning' | 'info' | 'success' | 'default'> = {
  'Update Pending': 'warning',
  Licensed: 'info',
  Online: 'success',
  Unknown: 'default',
};

/**
 * The spec's status chips: Update Pending, Licensed, Online, Unknown (never seen); then
 * offline, degraded sensor health and the last error.
 */
export function DeviceStatusChips({ device }: { device: Device }) {
  const { t } = useTranslation();
  const statuses = deviceStatuses(device);
  return (
    <Stack direction="row" sx={{ gap: 0.5, flexWrap: 'wrap' }} data-testid="device-status">
      {statuses.map((status) => {
        const chip = (
          <Chip
            key={status}
            size="small"
            color={COLOR[status]}
            variant={status === 'Unknown' ? 'outlined' : 'filled'}
            label={t(STATUS_KEY[status])}
          />
        );
        if (status !== 'Update Pending') return chip;
        // Why it is pending: the versions the agent applied against the console's.
        return (
          <Tooltip
            key={status}
            title={t('devices.status.versions', {
              configLocal: device.config_version_local ?? '—',
              configRemote: device.config_version_remote,
              policyLocal: device.policy_version_local ?? '—',
              policyRemote: device.policy_version_remote,
            })}
          >
            {chip}
          </Tooltip>
        );
      })}
      {!device.online && device.last_seen !== null && (
        <Chip size="small" variant="outlined" label={t('devices.status.offline')} />
      )}
      <DeviceHealthChip device={device} />
      {device.last_error !== null && (
        <Tooltip title={device.last_error}>
          <Chip size="small" color="error" variant="outlined" label={t('devices.status.error')} />
        </Tooltip>
      )}
    </Stack>
  );
}
