import { describe, expect, it } from 'vitest';
import { parseAddressSpec, parsePortSpec } from './index.js';

describe('parseAddressSpec', () => {
  it.each([
    ['any', { kind: 'any' }],
    ['ANY', { kind: 'any' }],
    ['$HOME_NET', { kind: 'variable', name: 'HOME_NET' }],
    ['!$HOME_NET', { kind: 'not', spec: { kind: 'variable', name: 'HOME_NET' } }],
    ['10.0.0.0/8', { kind: 'address', value: '10.0.0.0/8' }],
    ['2001:db8::/32', { kind: 'address', value: '2001:db8::/32' }],
    [
      '[10.0.0.0/8,![10.1.0.0/16, 10.2.0.0/16]]',
      {
        kind: 'list',
        items: [
          { kind: 'address', value: '10.0.0.0/8' },
          {
            kind: 'not',
            spec: {
              kind: 'list',
              items: [
                { kind: 'address', value: '10.1.0.0/16' },
                { kind: 'address', value: '10.2.0.0/16' },
              ],
            },
          },
        ],
      },
    ],
    [
      '1.1.1.1,2.2.2.2',
      {
        kind: 'list',
        items: [
          { kind: 'address', value: '1.1.1.1' },
          { kind: 'address', value: '2.2.2.2' },
        ],
      },
    ],
  ])('%s', (text, spec) => {
    expect(parseAddressSpec(text)).toEqual({ ok: true, spec });
  });

  it.each([
    ['', 0],
    ['[', 0],
    ['[1.1.1.1', 0],
    ['[]', 1],
    ['[1.1.1.1,]', 9],
    ['$', 0],
    ['$HOME-NET', 5],
    ['example.com', 0],
    ['1.1.1.1]', 7],
  ])('refuses %j at offset %i', (text, offset) => {
    const result = parseAddressSpec(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.offset).toBe(offset);
  });
});

describe('parsePortSpec', () => {
  it.each([
    ['any', { kind: 'any' }],
    ['80', { kind: 'port', port: 80 }],
    ['1024:', { kind: 'range', from: 1024, to: null }],
    [':1023', { kind: 'range', from: null, to: 1023 }],
    ['0:65535', { kind: 'range', from: 0, to: 65535 }],
    ['!$HTTP_PORTS', { kind: 'not', spec: { kind: 'variable', name: 'HTTP_PORTS' } }],
    [
      '[80,443,!8080]',
      {
        kind: 'list',
        items: [
          { kind: 'port', port: 80 },
          { kind: 'port', port: 443 },
          { kind: 'not', spec: { kind: 'port', port: 8080 } },
        ],
      },
    ],
  ])('%s', (text, spec) => {
    expect(parsePortSpec(text)).toEqual({ ok: true, spec });
  });

  it.each(['65536', '80:70', ':', 'http', '-1', '1.5', '[80,,443]', '123456'])(
    'refuses %j',
    (text) => {
      expect(parsePortSpec(text).ok).toBe(false);
    },
  );
});
