import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import SyncIcon from '@mui/icons-material/Sync';
import TerminalIcon from '@mui/icons-material/Terminal';
import { Link as RouterLink } from 'react-router';
import type { Device } from '@palisade/contract';
import { CellText } from '../../../components/data-table/CellText';
import { formatDate, formatTime } from '../../../lib/format-date';
import type { DeviceRowActions, DeviceSelection } from './useDeviceColumns';

/** Widest a name or description gets before it ends in an ellipsis. */
const NAME_WIDTH = 200;

/** The name, a link to the device's page, over its description; the selection box before it. */
export function DeviceNameCell({
  device: d,
  selection,
}: {
  device: Device;
  selection: DeviceSelection | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" sx={{ alignItems: 'center', gap: 0.5 }}>
      {selection !== undefined && (
        <Checkbox
          size="small"
          sx={{ p: 0.5, marginInlineStart: -1 }}
          checked={selection.isSelected(d)}
          onChange={(event) => selection.toggle(d, event.target.checked)}
          slotProps={{ input: { 'aria-label': t('devices.select', { name: d.name }) } }}
        />
      )}
      <div>
        <Link component={RouterLink} to={`/devices/${d.id}`} underline="hover" color="inherit">
          <CellText text={d.name} maxWidth={NAME_WIDTH} strong />
        </Link>
        {d.description !== '' && <CellText text={d.description} maxWidth={NAME_WIDTH} secondary />}
      </div>
    </Stack>
  );
}

/** The date over the time; `lastSeen` is not null. */
export function LastSeenCell({ lastSeen }: { lastSeen: string }) {
  const { i18n } = useTranslation();
  return (
    <Box sx={{ whiteSpace: 'nowrap' }}>
      <Typography variant="body2">{formatDate(lastSeen, i18n.language)}</Typography>
      <Typography variant="caption" color="text.secondary">
        {formatTime(lastSeen, i18n.language)}
      </Typography>
    </Box>
  );
}

/** Enrol, flush, edit and delete, for those who may write. */
export function DeviceActionsCell({
  device: d,
  canWrite,
  actions,
}: {
  device: Device;
  canWrite: boolean;
  actions: DeviceRowActions;
}) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
      {canWrite && (
        <>
          <Tooltip title={t('devices.enrol.open')}>
            <IconButton
              size="small"
              aria-label={t('devices.enrol.openFor', { name: d.name })}
              onClick={() => actions.enrol(d)}
            >
              <TerminalIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title={t('devices.flush')}>
            <IconButton
              size="small"
              aria-label={t('devices.flushFor', { name: d.name })}
              onClick={() => actions.flush(d)}
            >
              <SyncIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <IconButton
            size="small"
            aria-label={t('devices.edit', { name: d.name })}
            onClick={() => actions.edit(d)}
          >
            <EditIcon fontSize="small" />
          </IconButton>
          <IconButton
            size="small"
            aria-label={t('devices.delete', { name: d.name })}
            onClick={() => actions.remove(d)}
          >
            <DeleteIcon fontSize="small" />
          </IconButton>
        </>
      )}
    </Stack>
  );
}
