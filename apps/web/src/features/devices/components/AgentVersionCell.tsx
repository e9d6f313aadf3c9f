import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import SystemUpdateAltIcon from '@mui/icons-material/SystemUpdateAlt';
import { formatDateTime } from '../../../lib/format-date';
import type { Device } from '@palisade/contract';
import { agentUpgradeState } from './agent-upgrade';

interface AgentVersionCellProps {
  device: Device;
  /** The agent build this server hands out; null when it carries none or it is not known yet. */
  serverVersion: string | null;
  /** Present for those who may upgrade agents. */
  onUpgrade?: (device: Device) => void;
}

/** The agent version a device reports, and whether it is behind the server's or upgrading. */
export function AgentVersionCell({ device, serverVersion, onUpgrade }: AgentVersionCellProps) {
  const { t, i18n } = useTranslation();
  const state = agentUpgradeState(device);
  // Two lines at most: the table's rows have a fixed height (they are virtualised).
  return (
    <Stack sx={{ alignItems: 'flex-start' }} data-testid="agent-version">
      <Stack direction="row" sx={{ alignItems: 'center', gap: 0.5, minHeight: 24 }}>
        <Typography variant="body2" component="span" dir="ltr" sx={{ whiteSpace: 'nowrap' }}>
          {device.agent_version ?? '—'}
          {device.upgrade !== null && ` → ${device.upgrade.version}`}
        </Typography>
        {state === 'outdated' && onUpgrade !== undefined && (
          <Tooltip title={t('devices.upgrade.one')}>
            <IconButton
              size="small"
              sx={{ p: 0.25 }}
              aria-label={t('devices.upgrade.oneFor', { name: device.name })}
              onClick={() => onUpgrade(device)}
            >
              <SystemUpdateAltIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
      </Stack>
      {state === 'outdated' && (
        <Tooltip
          title={
            serverVersion === null
              ? t('devices.agent.outdatedHelp')
              : t('devices.agent.outdatedVersion', { version: serverVersion })
          }
        >
          <Chip
            size="small"
            color="warning"
            variant="outlined"
            label={t('devices.agent.outdated')}
          />
        </Tooltip>
      )}
      {device.upgrade !== null && (
        <Tooltip
          title={t('devices.agent.upgradingSince', {
            version: device.upgrade.version,
            when: formatDateTime(device.upgrade.requested_at, i18n.language),
          })}
        >
          <Chip size="small" color="info" label={t('devices.agent.upgrading')} />
        </Tooltip>
      )}
    </Stack>
  );
}
