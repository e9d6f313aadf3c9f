// Random rulesets (seeded, so a failure can be replayed): rendering never throws, and whatever
// renders without problems is accepted by the real nft. A second check compares the interval
// arithmetic with a naive reading of the same lists, address by address.

import { afterAll, describe, expect, it } from 'vitest';
import type { FirewallRuleInput } from '@palisade/contract';
import { renderFirewall, validateRuleset } from './index.js';
import { network, rule } from './testing/cases.js';
import { nftCheck, removeScratch } from './testing/nft.js';
import type { Family } from './ip.js';
import { MAX, formatIP, parseAddressToken, parseIP } from './ip.js';
import { Scope, readAddressField } from './resolve.js';

afterAll(removeScratch);

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VARIABLES: Record<string, string> = {
  HOME_NET: '[10.0.0.0/8,192.168.0.0/16,!10.9.0.0/16,fd00::/8]',
  EXTERNAL_NET: '!$HOME_NET',
  DMZ: '[172.16.5.0/24,172.16.6.1-172.16.6.9]',
  V6_NET: '2001:db8::/32',
  WEB_PORTS: '[80,443,8000:8100]',
  HIGH_PORTS: '1024:',
};

function generator(seed: number) {
  const r = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(r() * items.length)] as T;
  const v4 = () =>
    `${pick([10, 172, 192, 198, 203])}.${Math.floor(r() * 256)}.${Math.floor(r() * 256)}.${Math.floor(r() * 256)}`;
  const v6 = () =>
    `2001:db8:${Math.floor(r() * 65536).toString(16)}::${Math.floor(r() * 65536).toString(16)}`;
  const address = () =>
    pick([
      () => v4(),
      () => `${v4()}/${8 + Math.floor(r() * 25)}`,
      () => `10.0.0.${Math.floor(r() * 100)}-10.0.0.${100 + Math.floor(r() * 100)}`,
      () => v6(),
      () => `${v6()}/${16 + Math.floor(r() * 113)}`,
      () => pick(['$HOME_NET', '$EXTERNAL_NET', '$DMZ', '$V6_NET']),
      () => 'any',
    ])();
  const list = (item: () => string, max: number) => {
    const n = Math.floor(r() * max);
    const text = Array.from({ length: n }, item).join(pick([', ', ' ', ',']));
    return n > 0 && r() < 0.2 ? `!${text}` : text;
  };
  const port = () =>
    pick([
      () => String(Math.floor(r() * 65536)),
      () => `${Math.floor(r() * 1000)}-${1000 + Math.floor(r() * 1000)}`,
      () => pick(['$WEB_PORTS', '$HIGH_PORTS']),
    ])();
  return {
    address,
    list,
    rule(): FirewallRuleInput {
      const protocol = pick(['any', 'tcp', 'udp', 'icmp', 'icmpv6', 'tcp_udp'] as const);
      const ported = protocol === 'tcp' || protocol === 'udp' || protocol === 'tcp_udp';
      const chain = pick(['input', 'forward', 'output'] as const);
      return {
        chain,
        action: pick(['accept', 'drop', 'reject'] as const),
        protocol,
        source: list(address, 8),
        destination: list(address, 3),
        source_ports: ported && r() < 0.3 ? list(port, 3) : '',
        destination_ports: ported && r() < 0.7 ? list(port, 7) : '',
        in_interface: chain !== 'output' && r() < 0.3 ? pick(['eth0', 'lan', 'wg0']) : '',
        out_interface: chain !== 'input' && r() < 0.3 ? pick(['eth1', 'wan', 'br-lan.10']) : '',
        states: r() < 0.4 ? [pick(['new', 'established', 'related', 'invalid'] as const)] : [],
        log: r() < 0.2,
        counter: r() < 0.8,
        comment: r() < 0.3 ? `fuzz "${Math.floor(r() * 1000)}"` : '',
        enabled: r() < 0.95,
      };
    },
  };
}

describe('random rulesets', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`seed ${seed}: renders without throwing; what has no problems, nft accepts`, () => {
      const g = generator(seed);
      const rules = Array.from({ length: 150 }, () => rule(g.rule()));
      const { script, problems } = renderFirewall({
        rules,
        policies: { input: 'drop', forward: 'drop', output: 'accept' },
        variables: VARIABLES,
        network: network({
          l3_mode: true,
          source_nat: [{ out_interface: 'wan', source: g.list(g.address, 4) }],
          port_forwards: [
            { in_interface: 'wan', protocol: 'tcp', port: 8000 + seed, to_address: '10.1.1.1' },
          ],
        }),
      });
      // Problems are only ever the rule's own (families that cannot meet, and the like).
      expect(problems.every((p) => p.rule === null || rules[p.rule]?.enabled === true)).toBe(true);
      expect(nftCheck(script)).toBeNull();
      expect(validateRuleset(rules, VARIABLES).length).toBeGreaterThanOrEqual(
        problems.filter((p) => p.rule !== null).length,
      );
    });
  }
});

describe('address lists against a naive reading', () => {
  const scope = new Scope(VARIABLES);
  /** Membership read straight from the text, for literal lists (no variables). */
  function naive(text: string, probe: string): boolean {
    const negate = text.startsWith('!');
    const items = (negate ? text.slice(1) : text).split(/[\s,]+/).filter(Boolean);
    const ip = parseIP(probe);
    if (ip === null) throw new Error(probe);
    const hit = items.some((item) => {
      if (item === 'any') return true;
      const dash = item.indexOf('-');
      if (dash > 0) {
        const [a, b] = [parseIP(item.slice(0, dash)), parseIP(item.slice(dash + 1))];
        return a?.family === ip.family && b !== null && ip.value >= a.value && ip.value <= b.value;
      }
      const [base = '', bits] = item.split('/');
      const net = parseIP(base);
      if (net === null || net.family !== ip.family) return false;
      const width = ip.family === 4 ? 32 : 128;
      const host = BigInt(width - Number(bits ?? width));
      return ip.value >> host === net.value >> host;
    });
    return negate ? !hit : hit;
  }

  it('agrees at every boundary of 300 random literal lists (and at random addresses)', () => {
    const g = generator(42);
    const r = random(7);
    let checked = 0;
    for (let i = 0; i < 300; i++) {
      let text = '';
      while (text === '' || text.includes('$')) text = g.list(g.address, 6);
      const field = readAddressField(text, scope);
      expect(field.ok).toBe(true);
      if (!field.ok) continue;
      // Just inside and just outside each entry, and a few random addresses.
      const probes: { family: Family; value: bigint }[] = [];
      for (const item of text.replace(/^!/, '').split(/[\s,]+/)) {
        const token = parseAddressToken(item);
        if (!token.ok) continue;
        const { lo, hi } = token.interval;
        for (const value of [lo - 1n, lo, hi, hi + 1n]) {
          if (value >= 0n && value <= MAX[token.family])
            probes.push({ family: token.family, value });
        }
      }
      for (let k = 0; k < 3; k++)
        probes.push({ family: 4, value: BigInt(Math.floor(r() * 2 ** 32)) });
      for (const { family, value } of probes) {
        const probe = formatIP(family, value);
        const inSet = field.field.value[family].some((iv) => value >= iv.lo && value <= iv.hi);
        expect(field.field.negate ? !inSet : inSet, `${probe} in "${text}"`).toBe(
          naive(text, probe),
        );
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(2000);
  });
});
