import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Device, HealthReason } from '@palisade/contract';

const REASON_KEY = {
  rules_failed: 'devices.health.rulesFailed',
  drops: 'devices.health.drops',
} as const satisfies Record<HealthReason, string>;

const dash = '—';

/** Why a sensor is degraded, one sentence per reason. */
export function useHealthReasons(device: Device): string[] {
  const { t, i18n } = useTranslation();
  const percent = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
  return device.health.reasons.map((reason) =>
    t(REASON_KEY[reason], {
      n: device.sensor?.rules_failed ?? 0,
      percent: percent.format(device.sensor?.drop_percent ?? 0),
    }),
  );
}

/** "Degraded" with its reasons on hover; nothing for a healthy or unknown sensor. */
export function DeviceHealthChip({ device }: { device: Device }) {
  const { t } = useTranslation();
  const reasons = useHealthReasons(device);
  if (device.health.status !== 'degraded') return null;
  return (
    <Tooltip title={reasons.join(' · ')}>
      <Chip
        size="small"
        color="error"
        label={t('devices.health.degraded')}
        data-testid="device-degraded"
      />
    </Tooltip>
  );
}

/** Drop share of the sensor's capture, in red past the threshold the server applied. */
export function DropsCell({ device }: { device: Device }) {
  const { i18n } = useTranslation();
  const value = device.sensor?.drop_percent;
  if (value === undefined || value === null) return <>{dash}</>;
  const bad = device.health.reasons.includes('drops');
  return (
    <Typography
      variant="body2"
      sx={{
        whiteSpace: 'nowrap',
        color: bad ? 'error.dark' : undefined,
        fontWeight: bad ? 600 : 400,
      }}
    >
      {new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 }).format(value)} %
    </Typography>
  );
}

export function AlertRateCell({ device }: { device: Device }) {
  const { i18n } = useTranslation();
  const value = device.sensor?.alerts_per_min;
  if (value === undefined || value === null) return <>{dash}</>;
  return (
    <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
      {new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(value)}
    </Typography>
  );
}

/** Rules loaded, and below them the failed ones (in red when any failed). */
export function RulesCell({ device }: { device: Device }) {
  const { t, i18n } = useTranslation();
  const loaded = device.sensor?.rules_loaded;
  const failed = device.sensor?.rules_failed ?? 0;
  if (loaded === undefined || loaded === null) return <>{dash}</>;
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <Box sx={{ whiteSpace: 'nowrap' }}>
      <Typography variant="body2">{number.format(loaded)}</Typography>
      <Typography
        variant="caption"
        sx={{
          color: failed > 0 ? 'error.dark' : 'text.secondary',
          fontWeight: failed > 0 ? 600 : 400,
        }}
      >
        {t('devices.health.failedCount', { n: number.format(failed) })}
      </Typography>
    </Box>
  );
}
