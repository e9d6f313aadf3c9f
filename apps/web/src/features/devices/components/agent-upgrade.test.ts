import { describe, expect, it } from 'vitest';
import type { Device } from '@palisade/contract';
import { agentUpgradeState, upgradable } from './agent-upgrade';

const device = (fields: Partial<Device>) =>
  ({ id: 1, agent_outdated: false, upgrade: null, ...fields }) as Device;

describe('agentUpgradeState', () => {
  it('a pending request wins over outdated, which the server still reports until it is done', () => {
    const asked = { version: '0.2.0', requested_at: '2026-11-25T10:00:00Z' };
    expect(agentUpgradeState(device({ agent_outdated: true, upgrade: asked }))).toBe('upgrading');
    expect(upgradable(device({ agent_outdated: true, upgrade: asked }))).toBe(false);
  });

  it('an older agent not yet asked can be upgraded; a current one cannot', () => {
    expect(agentUpgradeState(device({ agent_outdated: true }))).toBe('outdated');
    expect(upgradable(device({ agent_outdated: true }))).toBe(true);
    expect(agentUpgradeState(device({}))).toBe('current');
    expect(upgradable(device({}))).toBe(false);
  });
});
