import { describe, expect, it } from 'vitest';
import type { Device } from '@palisade/contract';
import { mergeDevice } from './list-devices';

const device = (id: number, name: string) => ({ id, name }) as Device;

describe('mergeDevice', () => {
  it('replaces the device with the same id, or adds a new one', () => {
    const list = { data: [device(1, 'a'), device(2, 'b')], recordsTotal: 2 };
    expect(mergeDevice(list, device(2, 'B'))?.data.map((d) => d.name)).toEqual(['a', 'B']);
    expect(mergeDevice(list, device(3, 'c'))?.recordsTotal).toBe(3);
    expect(mergeDevice(undefined, device(3, 'c'))).toBeUndefined();
  });
});
