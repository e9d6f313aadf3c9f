import { useCallback } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Device } from '@palisade/contract';
import { allDevicesQueryOptions } from '../../features/devices/api/list-devices';
import { DeviceAssignments } from '../../features/devices/components/DeviceAssignments';
import { ExpiringList } from '../../features/expiry/components/ExpiringList';
import { FirewallPage } from '../../features/firewall/components/FirewallPage';
import { PreviewButton } from '../../features/firewall/components/PreviewButton';
import { ProfilesTab } from '../../features/profiles/components/ProfilesTab';
import { useDeviceTools } from '../device-tools';

const FIREWALL_RULES = ['firewall_rule'] as const;

/**
 * /firewall: the firewall feature's rulesets and per-device network, with the devices
 * feature's assignment table and the profiles feature's key/value sets as further tabs.
 */
export function Component() {
  const tools = useDeviceTools();
  const devices = useQuery(allDevicesQueryOptions);
  const preview = useCallback((device: Device) => <PreviewButton device={device} />, []);
  return (
    <FirewallPage
      canWrite={tools.canWrite}
      canOverrideLockout={tools.canOverrideLockout}
      devices={devices.data?.data ?? []}
      devicesLoading={devices.isPending}
      assignments={<DeviceAssignments tools={tools} rowActions={preview} />}
      profiles={
        <ProfilesTab canWrite={tools.canWrite} canOverrideLockout={tools.canOverrideLockout} />
      }
      expiring={<ExpiringList kinds={FIREWALL_RULES} />}
    />
  );
}
