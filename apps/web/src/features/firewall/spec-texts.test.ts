import { describe, expect, it } from 'vitest';
import { DeviceStatus } from '@palisade/contract';
import en from '../../locales/en.json';

describe('spec texts of the fleet screens', () => {
  it('ruleset notices are exact in English (spec §4)', () => {
    expect(en.firewall.notices.create).toBe('Create ruleset');
    expect(en.firewall.notices.update).toBe('Update ruleset');
    expect(en.firewall.notices.created).toBe('Ruleset successfully created');
    expect(en.firewall.notices.updated).toBe('Ruleset successfully updated');
  });

  it('device status labels are the contract enum, exactly (spec §4)', () => {
    const { updatePending, licensed, online, unknown } = en.devices.status;
    expect([updatePending, licensed, online, unknown]).toEqual(DeviceStatus.options);
  });
});
