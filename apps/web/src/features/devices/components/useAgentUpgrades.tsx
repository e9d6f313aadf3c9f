import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyApiError } from '../../../components/notifications/notify';
import { notifications } from '../../../components/notifications/queue';
import { ConfirmDialog } from '../../../components/page/ConfirmDialog';
import type { DeviceUpgradeRequest } from '@palisade/contract';
import { useUpgradeDevices } from '../api/upgrade-devices';

/** What an upgrade is asked for: one device, the selected ones, or every outdated one. */
export type UpgradeTarget =
  | { kind: 'one'; id: number; name: string }
  | { kind: 'selected'; ids: number[] }
  | { kind: 'allOutdated' };

const requestOf = (target: UpgradeTarget): DeviceUpgradeRequest => {
  switch (target.kind) {
    case 'one':
      return { ids: [target.id] };
    case 'selected':
      return { ids: target.ids };
    case 'allOutdated':
      return { all: true };
  }
};

/**
 * The upgrade actions: `ask(target)` opens the question; confirming sends the request and says
 * how many devices were asked. Render `dialog` once in the page.
 */
export function useAgentUpgrades(onRequested: () => void): {
  ask: (target: UpgradeTarget) => void;
  dialog: ReactNode;
} {
  const { t } = useTranslation();
  const { mutateAsync } = useUpgradeDevices();
  const [target, setTarget] = useState<UpgradeTarget | null>(null);

  const confirm = async (chosen: UpgradeTarget) => {
    setTarget(null);
    try {
      const { requested, version } = await mutateAsync(requestOf(chosen));
      notifications.push({
        content: 'devices.upgrade.requested',
        params: { n: requested, version },
        color: 'success',
      });
      onRequested();
    } catch (failure) {
      notifyApiError(failure);
    }
  };

  const body = (() => {
    switch (target?.kind) {
      case undefined:
        return '';
      case 'one':
        return t('devices.upgrade.oneBody', { name: target.name });
      case 'selected':
        return t('devices.upgrade.selectedBody', { n: target.ids.length });
      case 'allOutdated':
        return t('devices.upgrade.allBody');
    }
  })();
  const dialog = (
    <ConfirmDialog
      open={target !== null}
      title={t('devices.upgrade.title')}
      body={body}
      confirmLabel={t('devices.upgrade.confirm')}
      onCancel={() => setTarget(null)}
      onConfirm={() => target !== null && void confirm(target)}
    />
  );
  return { ask: setTarget, dialog };
}
