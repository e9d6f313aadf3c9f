import type { Device } from '@palisade/contract';

/** Where a device's agent stands against the build the server carries. */
export type AgentUpgradeState = 'upgrading' | 'outdated' | 'current';

export function agentUpgradeState(device: Device): AgentUpgradeState {
  if (device.upgrade !== null) return 'upgrading';
  return device.agent_outdated ? 'outdated' : 'current';
}

/** Devices an "Upgrade agent" can still help: outdated, and not already asked. */
export const upgradable = (device: Device): boolean => agentUpgradeState(device) === 'outdated';
