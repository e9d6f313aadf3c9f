import { describe, expect, it } from 'vitest';
import { renderRoutes } from './index.js';
import { formatIP, formatInterval, parseAddressToken, parseIP } from './ip.js';
import { complement, normalize, prefixLength } from './intervals.js';
import { network } from './testing/cases.js';

describe('addresses', () => {
  it.each([
    ['::', '::'],
    ['::1', '::1'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1'],
    ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8'],
    ['1:0:3:4:5:6:7:8', '1:0:3:4:5:6:7:8'],
    ['::ffff:192.0.2.1', '::ffff:c000:201'],
    ['64:ff9b::192.0.2.1', '64:ff9b::c000:201'],
    ['0.0.0.0', '0.0.0.0'],
    ['255.255.255.255', '255.255.255.255'],
  ])('%s reads and writes back as %s', (text, expected) => {
    const ip = parseIP(text);
    expect(ip).not.toBeNull();
    if (ip !== null) expect(formatIP(ip.family, ip.value)).toBe(expected);
  });

  it.each([
    '1.2.3',
    '1.2.3.4.5',
    '01.2.3.4',
    '256.0.0.1',
    '1::2::3',
    ':1:2',
    '1:2:3:4:5:6:7:8:9',
    '12345::',
    'g::1',
    '1:2:3:4:5:6:7::8',
    '',
  ])('%s is refused', (text) => {
    expect(parseIP(text)).toBeNull();
  });

  it('clears host bits and writes CIDR blocks, single addresses and ranges', () => {
    const block = parseAddressToken('192.168.1.77/24');
    expect(block.ok && formatInterval(block.family, block.interval)).toBe('192.168.1.0/24');
    const range = parseAddressToken('10.0.0.0-10.0.1.255');
    expect(range.ok && formatInterval(range.family, range.interval)).toBe('10.0.0.0/23');
    const odd = parseAddressToken('10.0.0.1-10.0.0.6');
    expect(odd.ok && formatInterval(odd.family, odd.interval)).toBe('10.0.0.1-10.0.0.6');
    const all = parseAddressToken('::/0');
    expect(all.ok && formatInterval(all.family, all.interval)).toBe('::/0');
  });
});

describe('intervals', () => {
  it('merges overlaps and neighbours; complements', () => {
    const set = normalize([
      { lo: 5n, hi: 9n },
      { lo: 0n, hi: 2n },
      { lo: 3n, hi: 4n },
      { lo: 20n, hi: 30n },
      { lo: 25n, hi: 26n },
    ]);
    expect(set).toEqual([
      { lo: 0n, hi: 9n },
      { lo: 20n, hi: 30n },
    ]);
    expect(complement(set, 40n)).toEqual([
      { lo: 10n, hi: 19n },
      { lo: 31n, hi: 40n },
    ]);
    // A gap of one stays a gap.
    expect(
      normalize([
        { lo: 3n, hi: 4n },
        { lo: 0n, hi: 1n },
      ]),
    ).toEqual([
      { lo: 0n, hi: 1n },
      { lo: 3n, hi: 4n },
    ]);
    expect(prefixLength({ lo: 8n, hi: 15n }, 32)).toBe(29);
    expect(prefixLength({ lo: 4n, hi: 11n }, 32)).toBeNull();
  });
});

describe('renderRoutes', () => {
  it('is null outside L3 mode or without routes, when it never managed any', () => {
    const routes = [{ address: '10.0.0.0/8', gateway: '192.0.2.1' }];
    expect(renderRoutes(network({ l3_mode: false, routes }))).toBeNull();
    expect(renderRoutes(network({ l3_mode: true }))).toBeNull();
  });

  it('deletes every proto 250 route, and adds none, once routes it managed are gone', () => {
    const routes = [{ address: '10.0.0.0/8', gateway: '192.0.2.1' }];
    const removed = renderRoutes(network({ l3_mode: true }), { managed: true });
    const l3Off = renderRoutes(network({ l3_mode: false, routes }), { managed: true });
    expect(l3Off).toBe(removed);
    expect(removed).not.toContain('route replace');
    expect(removed?.split('\n').slice(3, 6)).toEqual([
      'set -e',
      "keep='  '",
      'ip -4 route show proto 250 | while read -r dst rest; do',
    ]);
    expect(removed).toContain('ip -6 route show proto 250 | while read -r dst rest; do');
    expect(removed).toContain('*) ip -4 route del "$dst" proto 250 metric "$metric" ;;');
    expect(removed).toContain('*) ip -6 route del "$dst" proto 250 metric "$metric" ;;');
    // Configured routes render the same whether or not earlier ones were managed.
    expect(renderRoutes(network({ l3_mode: true, routes }), { managed: true })).toBe(
      renderRoutes(network({ l3_mode: true, routes })),
    );
  });

  it('leaves a bad route out, saying why, and keeps the good ones', () => {
    const script = renderRoutes(
      network({
        l3_mode: true,
        routes: [
          { address: 'nowhere', interface: 'eth0' },
          { address: '10.0.0.0/8', interface: 'eth0' },
        ],
      }),
    );
    expect(script?.split('\n').slice(4, 7)).toEqual([
      "# skipped routes.0.address: 'nowhere' is not a CIDR block or 'default'",
      'ip -4 route replace 10.0.0.0/8 dev eth0 proto 250',
      "keep=' 10.0.0.0/8@0 '",
    ]);
  });
});
