// Stand-ins for the issue-15 payloads that packages/contract gains from the enrol, release and
// upgrade parts; replaced by imports from @palisade/contract once those land.
import type { Device } from '@palisade/contract';

export interface EnrolmentToken {
  token: string;
  expires_at: string;
  device_id: number;
}

export interface EnrolmentStatus {
  status: 'none' | 'active' | 'used' | 'expired';
  expires_at: string | null;
  used_at: string | null;
}

export interface AgentRelease {
  version: string;
}

export type DeviceUpgradeRequest = { ids: number[] } | { all: true };

export interface DeviceUpgradeResponse {
  requested: number;
  version: string;
}

export type FleetDevice = Device & {
  agent_outdated: boolean;
  upgrade: { version: string; requested_at: string } | null;
};
