import { describe, expect, it } from 'vitest';
import { isoFromEpochMicros, isoFromEveTimestamp } from './microsecond-time.js';

describe('microsecond times', () => {
  it.each([
    ['2024-05-01T10:11:12.123456+0000', '2024-05-01T10:11:12.123456Z'],
    ['2024-05-01T12:11:12.999999+0200', '2024-05-01T10:11:12.999999Z'],
    ['2024-05-01T10:11:12.5Z', '2024-05-01T10:11:12.500000Z'],
    ['2024-05-01T10:11:12.1234567+00:00', '2024-05-01T10:11:12.123456Z'],
    ['2024-05-01T10:11:12Z', '2024-05-01T10:11:12.000000Z'],
  ])('reads %s', (stamp, iso) => {
    expect(isoFromEveTimestamp(stamp)?.iso).toBe(iso);
  });

  it('refuses what is not a date', () => {
    expect(isoFromEveTimestamp('yesterday.5')).toBeNull();
    expect(isoFromEveTimestamp('')).toBeNull();
  });

  it.each([
    ['1700000000123456', '2023-11-14T22:13:20.123456Z'],
    ['0', '1970-01-01T00:00:00.000000Z'],
    ['-1', '1969-12-31T23:59:59.999999Z'],
  ])('writes %s', (micros, iso) => {
    expect(isoFromEpochMicros(micros)).toBe(iso);
  });
});
