import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { formatDateTime } from '../../../lib/format-date';
import type { FleetDevice } from '../api/pending-contract';
import { agentUpgradeState } from './agent-upgrade';

interface AgentVersionCellProps {
  device: FleetDevice;
  /** The agent build this server hands out; null when it carries none or it is not known yet. */
  serverVersion: string | null;
}

/** The agent version a device reports, and whether it is behind the server's or upgrading. */
export function AgentVersionCell({ device, serverVersion }: AgentVersionCellProps) {
  const { t, i18n } = useTranslation();
  const state = agentUpgradeState(device);
  return (
    <Stack
      direction="row"
      sx={{ gap: 0.5, alignItems: 'center', flexWrap: 'wrap' }}
      data-testid="agent-version"
    >
      <Typography variant="body2" component="span" dir="ltr">
        {device.agent_version ?? '—'}
      </Typography>
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
            when: formatDateTime(device.upgrade.requested_at, i18n.language),
          })}
        >
          <Chip
            size="small"
            color="info"
            label={t('devices.agent.upgrading', { version: device.upgrade.version })}
          />
        </Tooltip>
      )}
    </Stack>
  );
}
