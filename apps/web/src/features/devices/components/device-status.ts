import { DeviceStatus, type Device } from '@palisade/contract';
import type { z } from 'zod';

export type DeviceStatusLabel = z.infer<typeof DeviceStatus>;

/** The spec's status labels that hold for a device, in the spec's order. */
export function deviceStatuses(device: Device): DeviceStatusLabel[] {
  return DeviceStatus.options.filter((label) => {
    switch (label) {
      case 'Update Pending':
        return device.update_pending;
      case 'Licensed':
        return device.licensed;
      case 'Online':
        return device.online;
      case 'Unknown':
        return device.last_seen === null;
    }
  });
}

/** Translation keys of the status labels. */
export const STATUS_KEY = {
  'Update Pending': 'devices.status.updatePending',
  Licensed: 'devices.status.licensed',
  Online: 'devices.status.online',
  Unknown: 'devices.status.unknown',
} as const satisfies Record<DeviceStatusLabel, string>;

/** 24 characters from a 62-letter alphabet (~142 bits), drawn without modulo bias. */
export function generateDevicePassword(length = 24): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const out: string[] = [];
  const limit = 256 - (256 % alphabet.length);
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const byte of bytes) {
      if (byte < limit && out.length < length) out.push(alphabet[byte % alphabet.length] ?? '');
    }
  }
  return out.join('');
}

/** The agent's start-up command for a device (the password goes in the file it names). */
export function startupCommand(origin: string, deviceId: number): string {
  return [
    'palisade-agent run',
    `--server ${origin}`,
    `--device-id ${deviceId}`,
    '--password-file /etc/palisade/agent.secret',
    '--output-dir /etc/suricata/palisade',
    '--eve /var/log/suricata/eve.json',
    '--reload-cmd "suricatasc -c reload-rules"',
  ].join(' ');
}
