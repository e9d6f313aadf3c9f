import { describe, expect, it } from 'vitest';
import type { Device } from '@palisade/contract';
import { deviceStatuses, generateDevicePassword, startupCommand } from './device-status';

const device: Device = {
  id: 7,
  name: 'edge',
  description: '',
  address: '',
  city: '',
  licensed: false,
  profile_id: null,
  policy_id: null,
  firewall_id: null,
  online: false,
  last_seen: null,
  update_pending: true,
  config_version_local: null,
  config_version_remote: 1,
  policy_version_local: null,
  policy_version_remote: 0,
  last_error: null,
  state: null,
  agent_version: null,
  metrics: null,
  sensor: null,
  policy_rules: null,
  firewall: null,
  health: { status: 'unknown', reasons: [] },
  alerts_rejected: 0,
  agent_outdated: false,
  upgrade: null,
  updated_at: '2026-01-01T00:00:00Z',
};

describe('device status', () => {
  it('a device never seen is Unknown and, when versions differ, Update Pending', () => {
    expect(deviceStatuses(device)).toEqual(['Update Pending', 'Unknown']);
  });

  it('an online licensed device in step', () => {
    const seen = { ...device, licensed: true, online: true, update_pending: false };
    expect(deviceStatuses({ ...seen, last_seen: '2026-01-01T00:00:00Z' })).toEqual([
      'Licensed',
      'Online',
    ]);
  });
});

describe('generateDevicePassword', () => {
  it('is long enough for the contract and differs each time', () => {
    const a = generateDevicePassword();
    expect(a).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(generateDevicePassword()).not.toBe(a);
  });
});

describe('startupCommand', () => {
  it('names the server, the device and the password file', () => {
    expect(startupCommand('https://console.example', 7)).toBe(
      'palisade-agent run --server https://console.example --device-id 7 --password-file /etc/palisade/agent.secret --output-dir /etc/suricata/palisade --eve /var/log/suricata/eve.json --reload-cmd "suricatasc -c reload-rules"',
    );
  });
});
