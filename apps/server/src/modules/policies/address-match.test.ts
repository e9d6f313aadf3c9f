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
