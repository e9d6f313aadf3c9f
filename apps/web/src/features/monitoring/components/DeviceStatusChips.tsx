import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import type { Device } from '@palisade/contract';

/**
 * Spec §4 device status labels: Online or Unknown, plus Update Pending and Licensed; and
 * Degraded when the sensor's health is (rules failed to load, or too many drops).
 */
export function DeviceStatusChips({ device }: { device: Device }) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" sx={{ gap: 0.5, flexWrap: 'wrap' }} data-testid="device-status">
      {device.online ? (
        <Chip size="small" color="success" label={t('monitoring.status.online')} />
      ) : (
        <Chip size="small" variant="outlined" label={t('monitoring.status.unknown')} />
      )}
      {device.update_pending && (
        <Chip size="small" color="warning" label={t('monitoring.status.updatePending')} />
      )}
      {device.health.status === 'degraded' && (
        <Chip
          size="small"
          color="error"
          label={t('monitoring.status.degraded')}
          data-testid="device-degraded"
        />
      )}
      {device.licensed && (
        <Chip
          size="small"
          variant="outlined"
          color="primary"
          label={t('monitoring.status.licensed')}
        />
      )}
    </Stack>
  );
}
