import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import Checkbox from '@mui/material/Checkbox';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import SyncIcon from '@mui/icons-material/Sync';
import TerminalIcon from '@mui/icons-material/Terminal';
import type { DataColumn } from '../../../components/data-table/types';
import { formatDate } from '../../../lib/format-date';
import type { Device } from '@palisade/contract';
import { AgentVersionCell } from './AgentVersionCell';
import { DeviceStatusChips } from './DeviceStatusChips';
import { nameOf, type DeviceTools } from './tools';

/** What the row actions do; the page owns the dialogs they open. */
export interface DeviceRowActions {
  enrol: (device: Device) => void;
  flush: (device: Device) => void;
  edit: (device: Device) => void;
  remove: (device: Device) => void;
  upgrade: (device: Device) => void;
}

export interface DeviceSelection {
  isSelected: (device: Device) => boolean;
  toggle: (device: Device, on: boolean) => void;
}

interface DeviceColumnsOptions {
  tools: DeviceTools;
  actions: DeviceRowActions;
  /** Present for those who may upgrade agents. */
  selection: DeviceSelection | undefined;
  serverAgentVersion: string | null;
}

/** The devices table's columns; write and upgrade actions only for the roles that have them. */
export function useDeviceColumns({
  tools,
  actions,
  selection,
  serverAgentVersion,
}: DeviceColumnsOptions): DataColumn<Device>[] {
  const { t, i18n } = useTranslation();
  const { canWrite, canUpgrade } = tools;
  return useMemo<DataColumn<Device>[]>(() => {
    const columns: DataColumn<Device>[] = [
      {
        id: 'name',
        header: t('devices.fields.name'),
        sortable: true,
        width: 200,
        cell: (d) => (
          // The selection box sits in the name cell: a column of its own costs the actions room.
          <Stack direction="row" sx={{ alignItems: 'center', gap: 0.5 }}>
            {selection !== undefined && (
              <Checkbox
                size="small"
                sx={{ p: 0.5, ms: -1 }}
                checked={selection.isSelected(d)}
                onChange={(event) => selection.toggle(d, event.target.checked)}
                slotProps={{ input: { 'aria-label': t('devices.select', { name: d.name }) } }}
              />
            )}
            <div>
              <Typography variant="body2" sx={{ fontWeight: 500 }}>
                {d.name}
              </Typography>
              {d.description !== '' && (
                <Typography variant="caption" color="text.secondary">
                  {d.description}
                </Typography>
              )}
            </div>
          </Stack>
        ),
      },
      {
        id: 'status',
        header: t('devices.columns.status'),
        cell: (d) => <DeviceStatusChips device={d} />,
      },
      {
        id: 'agent_version',
        header: t('devices.columns.agentVersion'),
        cell: (d) => (
          <AgentVersionCell
            device={d}
            serverVersion={serverAgentVersion}
            onUpgrade={canUpgrade ? actions.upgrade : undefined}
          />
        ),
      },
      {
        id: 'address',
        header: t('devices.fields.address'),
        sortable: true,
        cell: (d) => (
          <>
            <Typography variant="body2">{d.address}</Typography>
            <Typography variant="caption" color="text.secondary">
              {d.city}
            </Typography>
          </>
        ),
      },
      {
        id: 'policy',
        header: t('devices.fields.policy'),
        cell: (d) => nameOf(tools.policies, d.policy_id) ?? '—',
      },
      {
        id: 'profile',
        header: t('devices.fields.profile'),
        cell: (d) => nameOf(tools.profiles, d.profile_id) ?? '—',
      },
      {
        id: 'firewall',
        header: t('devices.fields.firewall'),
        cell: (d) => nameOf(tools.firewalls, d.firewall_id) ?? '—',
      },
      {
        id: 'last_seen',
        header: t('devices.columns.lastSeen'),
        sortable: true,
        cell: (d) =>
          d.last_seen === null ? (
            t('devices.never')
          ) : (
            <>
              <Typography variant="body2">{formatDate(d.last_seen, i18n.language)}</Typography>
              <Typography variant="caption" color="text.secondary">
                {new Date(d.last_seen).toLocaleTimeString(i18n.language)}
              </Typography>
            </>
          ),
      },
      {
        id: 'actions',
        header: t('devices.columns.actions'),
        align: 'right',
        width: 176,
        cell: (d) => (
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
        ),
      },
    ];
    // A Viewer has no action on a device.
    if (!canWrite) columns.pop();
    return columns;
  }, [t, i18n.language, tools, canWrite, canUpgrade, actions, selection, serverAgentVersion]);
}
