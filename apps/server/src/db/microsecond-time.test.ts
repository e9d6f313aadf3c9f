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

  // Suricata's own form is read without Date.parse; a date that form holds but the calendar
  // does not (or that Date reads its own way) must come out as Date.parse makes it.
  it.each([
    ['2024-02-29T23:59:59.999999+0000', '2024-02-29T23:59:59.999999Z'],
    ['2023-02-29T00:00:00.000001+0000', '2023-03-01T00:00:00.000001Z'],
    ['2024-04-31T00:00:00.000000+0000', '2024-05-01T00:00:00.000000Z'],
    ['2024-01-01T24:00:00.000000+0000', '2024-01-02T00:00:00.000000Z'],
    ['0099-01-01T00:00:00.000000+0000', '0099-01-01T00:00:00.000000Z'],
    ['1900-02-29T00:00:00.000000+0000', '1900-03-01T00:00:00.000000Z'],
    // A sensor on local time: the offset moves the day, the month and the year.
    ['2024-03-01T00:30:00.000001+0100', '2024-02-29T23:30:00.000001Z'],
    ['2023-12-31T20:00:00.500000-0500', '2024-01-01T01:00:00.500000Z'],
    ['2024-05-01T05:41:12.123456-0430', '2024-05-01T10:11:12.123456Z'],
    ['2024-02-30T01:00:00.000000+0200', '2024-02-29T23:00:00.000000Z'],
  ])('reads %s as a Date would', (stamp, iso) => {
    const read = isoFromEveTimestamp(stamp);
    expect(read?.iso).toBe(iso);
    expect(read?.millis).toBe(Date.parse(iso));
  });

  it('reads the time of a Suricata timestamp to the millisecond', () => {
    const read = isoFromEveTimestamp('2024-05-01T10:11:12.123456+0000');
    expect(read?.millis).toBe(Date.UTC(2024, 4, 1, 10, 11, 12, 123));
  });

  it('refuses what is not a date', () => {
    expect(isoFromEveTimestamp('2024-13-01T00:00:00.000000+0000')).toBeNull();
    expect(isoFromEveTimestamp('2024-01-01T10:61:00.000000+0000')).toBeNull();
    expect(isoFromEveTimestamp('2024-05-01T10:11:12.000000+2400')).toBeNull();
    expect(isoFromEveTimestamp('2024-05-01T10:11:12.000000-0060')).toBeNull();
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
