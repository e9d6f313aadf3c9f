import { BlockList } from 'node:net';
import { describe, expect, it } from 'vitest';
import { addressMatcher } from './address-match.js';

describe("a suppression's address specification", () => {
  const variables = { HOME_NET: '[10.0.0.0/8,fd00::/8]', DMZ: '$HOME_NET', LOOP: '$LOOP' };
  const matches = (spec: string, ip: string | null) => addressMatcher(spec, variables).matches(ip);

  it('reads addresses, blocks, ranges and both families', () => {
    expect(matches('10.0.0.5', '10.0.0.5')).toBe(true);
    expect(matches('10.0.0.5', '10.0.0.6')).toBe(false);
    expect(matches('10.1.0.0/16', '10.1.200.3')).toBe(true);
    expect(matches('10.1.0.0/16', '10.2.0.1')).toBe(false);
    expect(matches('10.0.0.1-10.0.0.9', '10.0.0.9')).toBe(true);
    expect(matches('10.0.0.1-10.0.0.9', '10.0.0.10')).toBe(false);
    expect(matches('2001:db8::/32', '2001:db8::1')).toBe(true);
    expect(matches('2001:db8::/32', '10.0.0.1')).toBe(false);
    expect(matches('any', '192.0.2.1')).toBe(true);
  });

  it("agrees with Node's BlockList on IPv4 blocks, ranges and spellings", () => {
    let state = 20_261_129;
    const next = () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
    const octet = () => Math.floor(next() * 256);
    const specs: [string, (list: BlockList) => void][] = [
      ['10.1.2.3/16', (l) => l.addSubnet('10.1.2.3', 16, 'ipv4')],
      ['0.0.0.0/0', (l) => l.addSubnet('0.0.0.0', 0, 'ipv4')],
      ['255.255.255.255/32', (l) => l.addSubnet('255.255.255.255', 32, 'ipv4')],
      ['10.0.0.0/7', (l) => l.addSubnet('10.0.0.0', 7, 'ipv4')],
      ['10.0.0.200-10.0.1.5', (l) => l.addRange('10.0.0.200', '10.0.1.5', 'ipv4')],
      ['10.0.0.7', (l) => l.addAddress('10.0.0.7', 'ipv4')],
    ];
    for (const [spec, fill] of specs) {
      const reference = new BlockList();
      fill(reference);
      const matcher = addressMatcher(spec, {});
      const near = spec.split(/[/-]/)[0]?.split('.').map(Number) ?? [];
      for (let i = 0; i < 2000; i += 1) {
        // Mostly around the block's own addresses, some anywhere, some in other spellings.
        const parts =
          next() < 0.7 ? near.map((n, k) => (k < 2 ? n : octet())) : [0, 0, 0, 0].map(octet);
        let ip = parts.join('.');
        if (i % 50 === 0) ip = `0${ip}`;
        if (i % 77 === 0) ip = `::ffff:${ip}`;
        const family = ip.includes(':') ? 'ipv6' : 'ipv4';
        const expected = (() => {
          try {
            return reference.check(ip, family);
          } catch {
            return false; // an address Node does not read is in no block
          }
        })();
        expect({ spec, ip, hit: matcher.matches(ip) }).toEqual({ spec, ip, hit: expected });
      }
    }
  });

  it('negates, and a list holds its positives less its negations', () => {
    expect(matches('!10.0.0.5', '10.0.0.6')).toBe(true);
    expect(matches('!10.0.0.5', '10.0.0.5')).toBe(false);
    expect(matches('[10.0.0.0/8,!10.0.0.5]', '10.9.9.9')).toBe(true);
    expect(matches('[10.0.0.0/8,!10.0.0.5]', '10.0.0.5')).toBe(false);
    expect(matches('[10.0.0.0/8,!10.0.0.5]', '192.0.2.1')).toBe(false);
    expect(matches('[!10.0.0.5]', '192.0.2.1')).toBe(true);
    expect(matches('[10.0.0.0/8,![10.1.0.0/16,!10.1.1.1]]', '10.1.1.1')).toBe(true);
    expect(matches('[10.0.0.0/8,![10.1.0.0/16,!10.1.1.1]]', '10.1.1.2')).toBe(false);
  });

  it("follows the device's variables; an unknown or looping one matches nothing and is named", () => {
    expect(matches('$DMZ', 'fd00::7')).toBe(true);
    expect(matches('$DMZ', '192.0.2.1')).toBe(false);
    const unknown = addressMatcher('[$NOPE,192.0.2.1]', variables);
    expect(unknown.matches('192.0.2.1')).toBe(true);
    expect(unknown.matches('10.0.0.1')).toBe(false);
    expect(unknown.unresolved).toEqual(['$NOPE']);
    const loop = addressMatcher('$LOOP', variables);
    expect(loop.matches('10.0.0.1')).toBe(false);
    expect(loop.unresolved).toEqual(['$LOOP']);
  });

  it('matches nothing for no address, a malformed one or a malformed specification', () => {
    expect(matches('10.0.0.0/8', null)).toBe(false);
    expect(matches('10.0.0.0/8', 'not-an-ip')).toBe(false);
    expect(matches('[10.0.0.0/8', '10.0.0.1')).toBe(false);
    expect(matches('10.0.0.0/99', '10.0.0.1')).toBe(false);
  });
});
