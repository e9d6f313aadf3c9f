import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Typography from '@mui/material/Typography';
import type { Device } from '@palisade/contract';
import { DataTable } from '../../../components/data-table/DataTable';
import { initialTableState } from '../../../components/data-table/list-params';
import { localPage } from '../../../components/data-table/local-page';
import type { DataColumn } from '../../../components/data-table/types';
import { useChangeReview } from '../../../components/change-review/useChangeReview';
import { LockoutDialog, lockoutMessage } from '../../../components/lockout/LockoutDialog';
import { notifyApiError } from '../../../components/notifications/notify';
import { withProgress } from '../../../components/notifications/queue';
import { devicesListQueryOptions } from '../api/list-devices';
import { previewDevice } from '../api/preview-device';
import { useSaveDevice } from '../api/save-device';
import { AssignSelect } from './AssignSelect';
import { DeviceStatusChips } from './DeviceStatusChips';
import type { DeviceTools } from './tools';
import { tableQueryStatus } from '../../../components/data-table/query-status';

interface DeviceAssignmentsProps {
  tools: DeviceTools;
  /** Extra buttons per device (the firewall preview). */
  rowActions?: (device: Device) => ReactNode;
}

/** Spec §2 Firewall: assign firewall and policy to devices, one picker each per row. */
export function DeviceAssignments({ tools, rowActions }: DeviceAssignmentsProps) {
  const { t } = useTranslation();
  const [state, setState] = useState(() => initialTableState(25, [{ id: 'name', desc: false }]));
  const list = useQuery(devicesListQueryOptions({ filter: state.search, sorting: state.sorting }));
  const { mutateAsync: saveAsync } = useSaveDevice();
  const page = localPage(list.data?.data ?? [], { ...state, search: '', sorting: [] }, () => []);
  const { canWrite } = tools;
  type Change = { firewall_id?: number | null; policy_id?: number | null };
  const [refused, setRefused] = useState<{ device: Device; change: Change; message: string }>();

  const { reviewThenSave, dialog: reviewDialog } = useChangeReview();

  /** An assignment is reviewed (what the device would receive) before it is sent. */
  const assign = useCallback(
    async (device: Device, change: Change, override = false) => {
      const labels = { progress: 'devices.notices.assigning', success: 'devices.notices.assigned' };
      try {
        if (override) {
          // Already reviewed; the Administrator applies it despite the lock-out check.
          const body = { ...change, override_lockout: true };
          await withProgress(labels, () => saveAsync({ id: device.id, body }));
          return;
        }
        await reviewThenSave({
          preview: () => previewDevice(device.id, change),
          save: () => saveAsync({ id: device.id, body: change }),
          labels,
        });
      } catch (failure) {
        const message = lockoutMessage(failure);
        if (message !== null) setRefused({ device, change, message });
        else notifyApiError(failure);
      }
    },
    [saveAsync, reviewThenSave],
  );

  const columns = useMemo<DataColumn<Device>[]>(
    () => [
      {
        id: 'name',
        header: t('devices.fields.name'),
        sortable: true,
        cell: (d) => <Typography variant="body2">{d.name}</Typography>,
      },
      {
        id: 'status',
        header: t('devices.columns.status'),
        cell: (d) => <DeviceStatusChips device={d} />,
      },
      {
        id: 'firewall',
        header: t('devices.fields.firewall'),
        cell: (d) => (
          <AssignSelect
            label={t('devices.assign.firewallOf', { name: d.name })}
            value={d.firewall_id}
            options={tools.firewalls}
            noneLabel={t('devices.none')}
            disabled={!canWrite}
            onChange={(id) => void assign(d, { firewall_id: id })}
          />
        ),
      },
      {
        id: 'policy',
        header: t('devices.fields.policy'),
        cell: (d) => (
          <AssignSelect
            label={t('devices.assign.policyOf', { name: d.name })}
            value={d.policy_id}
            options={tools.policies}
            noneLabel={t('devices.none')}
            disabled={!canWrite}
            onChange={(id) => void assign(d, { policy_id: id })}
          />
        ),
      },
      {
        id: 'actions',
        header: t('devices.columns.actions'),
        align: 'right',
        cell: (d) => rowActions?.(d),
      },
    ],
    [t, tools, canWrite, assign, rowActions],
  );

  return (
    <>
      <DataTable
        label={t('devices.assign.title')}
        columns={columns}
        rows={page.rows}
        total={page.total}
        getRowId={(d) => String(d.id)}
        state={state}
        onStateChange={setState}
        {...tableQueryStatus(list, t)}
        emptyText={t('devices.empty')}
        rowHeight={60}
        height="calc(100vh - 360px)"
      />
      {reviewDialog}
      {refused !== undefined && (
        <LockoutDialog
          message={refused.message}
          canOverride={tools.canOverrideLockout}
          onClose={() => setRefused(undefined)}
          onOverride={() => {
            setRefused(undefined);
            void assign(refused.device, refused.change, true);
          }}
        />
      )}
    </>
  );
}
