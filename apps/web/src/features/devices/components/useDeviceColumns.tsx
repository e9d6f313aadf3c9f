import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CellText } from '../../../components/data-table/CellText';
import type { DataColumn } from '../../../components/data-table/types';
import type { Device } from '@palisade/contract';
import { AgentVersionCell } from './AgentVersionCell';
import { DeviceActionsCell, DeviceNameCell, LastSeenCell } from './DeviceCells';
import { AlertRateCell, DropsCell, RulesCell } from './DeviceHealthCells';
import { DeviceStatusChips } from './DeviceStatusChips';
import { nameOf, type DeviceTools } from './tools';

/** Widest an address, city or assigned policy/profile/firewall name gets. */
const TEXT_WIDTH = 150;
/*
 * Table widths (px, the table's own) from which the less vital columns show; narrower tables
 * leave them out, firewall first and last seen last. Name, status, agent and the row actions
 * always show. Each step is what the columns shown so far need at their widest (names cut at
 * their maximum width) plus the next one, so the table does not scroll sideways; 1280 px with
 * the navigation drawer open leaves the table about 990 px, 1920 px about 1630 px.
 */
const SHOW_LAST_SEEN_FROM = 900;
/** Drops and rules: what an IDS operator reads first, before the assignments. */
const SHOW_HEALTH_FROM = 1060;
const SHOW_ALERT_RATE_FROM = 1160;
const SHOW_POLICY_FROM = 1340;
const SHOW_ADDRESS_FROM = 1520;
const SHOW_PROFILE_FROM = 1700;
const SHOW_FIREWALL_FROM = 1880;

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
  const { t } = useTranslation();
  const { canWrite, canUpgrade } = tools;
  return useMemo<DataColumn<Device>[]>(() => {
    const columns: DataColumn<Device>[] = [
      {
        id: 'name',
        header: t('devices.fields.name'),
        sortable: true,
        // The selection box sits in the name cell: a column of its own costs the actions room.
        cell: (d) => <DeviceNameCell device={d} selection={selection} />,
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
        id: 'drop_percent',
        header: t('devices.columns.drops'),
        sortable: true,
        align: 'right',
        hideBelow: SHOW_HEALTH_FROM,
        cell: (d) => <DropsCell device={d} />,
      },
      {
        id: 'alerts_per_min',
        header: t('devices.columns.alertsPerMin'),
        sortable: true,
        align: 'right',
        hideBelow: SHOW_ALERT_RATE_FROM,
        cell: (d) => <AlertRateCell device={d} />,
      },
      {
        id: 'rules_failed',
        header: t('devices.columns.rules'),
        sortable: true,
        align: 'right',
        hideBelow: SHOW_HEALTH_FROM,
        cell: (d) => <RulesCell device={d} />,
      },
      {
        id: 'address',
        header: t('devices.fields.address'),
        sortable: true,
        hideBelow: SHOW_ADDRESS_FROM,
        cell: (d) => (
          <>
            <CellText text={d.address} maxWidth={TEXT_WIDTH} />
            <CellText text={d.city} maxWidth={TEXT_WIDTH} secondary />
          </>
        ),
      },
      {
        id: 'policy',
        header: t('devices.fields.policy'),
        hideBelow: SHOW_POLICY_FROM,
        cell: (d) => (
          <CellText text={nameOf(tools.policies, d.policy_id) ?? '—'} maxWidth={TEXT_WIDTH} />
        ),
      },
      {
        id: 'profile',
        header: t('devices.fields.profile'),
        hideBelow: SHOW_PROFILE_FROM,
        cell: (d) => (
          <CellText text={nameOf(tools.profiles, d.profile_id) ?? '—'} maxWidth={TEXT_WIDTH} />
        ),
      },
      {
        id: 'firewall',
        header: t('devices.fields.firewall'),
        hideBelow: SHOW_FIREWALL_FROM,
        cell: (d) => (
          <CellText text={nameOf(tools.firewalls, d.firewall_id) ?? '—'} maxWidth={TEXT_WIDTH} />
        ),
      },
      {
        id: 'last_seen',
        header: t('devices.columns.lastSeen'),
        sortable: true,
        hideBelow: SHOW_LAST_SEEN_FROM,
        cell: (d) =>
          d.last_seen === null ? t('devices.never') : <LastSeenCell lastSeen={d.last_seen} />,
      },
      {
        id: 'actions',
        header: t('devices.columns.actions'),
        align: 'right',
        // Always in reach, however many columns the table shows.
        pinned: 'end',
        cell: (d) => <DeviceActionsCell device={d} canWrite={canWrite} actions={actions} />,
      },
    ];
    // A Viewer has no action on a device.
    if (!canWrite) columns.pop();
    return columns;
  }, [t, tools, canWrite, canUpgrade, actions, selection, serverAgentVersion]);
}
