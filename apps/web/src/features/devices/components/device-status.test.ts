import { describe, expect, it } from 'vitest';
import { device as deviceFixture } from '../../../testing/devices';
import { deviceStatuses, generateDevicePassword, startupCommand } from './device-status';

// Never seen, its first configuration waiting.
const device = deviceFixture(7, 'edge', {
  online: false,
  last_seen: null,
  update_pending: true,
  config_version_local: null,
  policy_version_local: null,
  state: null,
  agent_version: null,
});

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
