import { describe, expect, it } from 'vitest';
import { Id, IdParams, INT4_MAX, SafeString, UNSTORABLE_TEXT } from './common.js';
import { DeviceWrite } from './devices.js';

describe('SafeString', () => {
  it('refuses NUL and unpaired surrogates, naming the field', () => {
    for (const bad of ['\u0000', 'a\u0000b', '\uD800', 'x\uDC00y', '\uDFFF\uD800']) {
      const result = DeviceWrite.safeParse({ name: bad, password: 'device-secret-1234' });
      expect(result.success, JSON.stringify(bad)).toBe(false);
      expect(result.error?.issues).toEqual([
        expect.objectContaining({ path: ['name'], message: UNSTORABLE_TEXT }),
      ]);
    }
  });

  it('keeps every other character, paired surrogates (emoji) included', () => {
    for (const good of ['', 'plain', '😀', 'Ünïcödé', '\u0001\u001f', '\uFFFF', 'a\\u0000']) {
      expect(SafeString.safeParse(good).success, JSON.stringify(good)).toBe(true);
    }
  });
});

describe('Id', () => {
  it('is what PostgreSQL integer holds, from 1', () => {
    expect(Id.safeParse(1).success).toBe(true);
    expect(Id.safeParse(INT4_MAX).success).toBe(true);
    for (const bad of [0, -1, 1.5, INT4_MAX + 1, 2 ** 53])
      expect(Id.safeParse(bad).success).toBe(false);
  });

  it('in a path: digits up to 2^31 - 1', () => {
    expect(IdParams.parse({ id: '2147483647' })).toEqual({ id: INT4_MAX });
    for (const bad of ['2147483648', '0', '-1', 'abc', '']) {
      expect(IdParams.safeParse({ id: bad }).success, bad).toBe(false);
    }
  });
});
