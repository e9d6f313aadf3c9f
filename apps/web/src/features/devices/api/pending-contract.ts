// Stand-ins for the issue-15 payloads that packages/contract gains from the upgrade part;
// replaced by imports from @palisade/contract once it lands.
import type { Device } from '@palisade/contract';

export type DeviceUpgradeRequest = { ids: number[] } | { all: true };

export interface DeviceUpgradeResponse {
  requested: number;
  version: string;
}

export type FleetDevice = Device & {
  agent_outdated: boolean;
  upgrade: { version: string; requested_at: string } | null;
};
