// Bad input is reported with the rule index and field, never thrown; the rest still renders.

import { describe, expect, it } from 'vitest';
import type { FirewallRuleInput } from '@palisade/contract';
import { renderFirewall, validateNetwork, validateRuleset } from './index.js';
import { PROFILE, defaultPolicies, network, rule } from './testing/cases.js';
import { nftCheck, removeScratch } from './testing/nft.js';
import { afterAll } from 'vitest';

afterAll(removeScratch);

const VARIABLES: Record<string, string> = {
  ...PROFILE,
  LOOP_A: '[$LOOP_B]',
  LOOP_B: '[10.0.0.1,$LOOP_A]',
  BROKEN: '[10.0.0.0/33]',
  V6_ONLY: '[2001:db8::/32]',
};

const CASES: [string, FirewallRuleInput, string, RegExp][] = [
  [
    'unknown variable',
    { chain: 'input', action: 'accept', source: '$NOPE' },
    'source',
    /unknown variable \$NOPE/,
  ],
  [
    'bad CIDR',
    { chain: 'input', action: 'accept', destination: '10.0.0.0/33' },
    'destination',
    /"10\.0\.0\.0\/33" is not an IP address/,
  ],
  [
    'bad address',
    { chain: 'input', action: 'accept', source: '10.0.0.256' },
    'source',
    /is not an IP address/,
  ],
  [
    'hostname',
    { chain: 'input', action: 'accept', source: 'example.com' },
    'source',
    /is not an IP address/,
  ],
  [
    'backwards range',
    { chain: 'input', action: 'accept', source: '10.0.0.9-10.0.0.1' },
    'source',
    /runs backwards/,
  ],
  [
    'mixed range',
    { chain: 'input', action: 'accept', source: '10.0.0.1-::1' },
    'source',
    /mixes IPv4 and IPv6/,
  ],
  [
    'inner negation',
    { chain: 'input', action: 'accept', source: '10.0.0.0/8, !10.1.0.0/16' },
    'source',
    /only a leading '!'/,
  ],
  ['lonely !', { chain: 'input', action: 'accept', source: '!' }, 'source', /'!' without a list/],
  ['!any', { chain: 'input', action: 'accept', source: '!any' }, 'source', /matches no address/],
  [
    'ports with protocol any',
    { chain: 'input', action: 'accept', destination_ports: '22' },
    'destination_ports',
    /ports need protocol tcp, udp or tcp_udp, not any/,
  ],
  [
    'ports with icmp',
    { chain: 'input', action: 'accept', protocol: 'icmp', source_ports: '22' },
    'source_ports',
    /not icmp/,
  ],
  [
    'bad port',
    { chain: 'input', action: 'accept', protocol: 'tcp', destination_ports: '70000' },
    'destination_ports',
    /ports end at 65535/,
  ],
  [
    'port word',
    { chain: 'input', action: 'accept', protocol: 'tcp', destination_ports: 'http' },
    'destination_ports',
    /is not a port or a range/,
  ],
  [
    'backwards ports',
    { chain: 'input', action: 'accept', protocol: 'udp', destination_ports: '90-80' },
    'destination_ports',
    /runs backwards/,
  ],
  [
    'no port left',
    { chain: 'input', action: 'accept', protocol: 'tcp', destination_ports: '!0-65535' },
    'destination_ports',
    /matches no port/,
  ],
  [
    'address variable as ports',
    { chain: 'input', action: 'accept', protocol: 'tcp', destination_ports: '$HOME_NET' },
    'destination_ports',
    /not a port variable/,
  ],
  [
    'port variable as addresses',
    { chain: 'input', action: 'accept', source: '$HTTP_PORTS' },
    'source',
    /is a port variable/,
  ],
  [
    'variable loop',
    { chain: 'input', action: 'accept', source: '$LOOP_A' },
    'source',
    /refers to itself/,
  ],
  [
    'broken variable',
    { chain: 'input', action: 'accept', source: '$BROKEN' },
    'source',
    /\$BROKEN: "10\.0\.0\.0\/33" is not an IP address/,
  ],
  [
    'bad variable name',
    { chain: 'input', action: 'accept', source: '$HOME-NET' },
    'source',
    /is not a variable name/,
  ],
  [
    'input interface on output',
    { chain: 'output', action: 'accept', in_interface: 'eth0' },
    'in_interface',
    /no input interface/,
  ],
  [
    'output interface on input',
    { chain: 'input', action: 'accept', out_interface: 'eth0' },
    'out_interface',
    /no output interface/,
  ],
  [
    'IPv4 to IPv6',
    { chain: 'forward', action: 'accept', source: '10.0.0.0/8', destination: '$V6_ONLY' },
    'destination',
    /can never match: source is IPv4 only, destination is IPv6 only/,
  ],
  [
    'icmp to IPv6',
    { chain: 'input', action: 'accept', protocol: 'icmp', source: '2001:db8::1' },
    'protocol',
    /protocol icmp is IPv4 only, source is IPv6 only/,
  ],
];

describe('problems name the rule and the field', () => {
  for (const [name, input, field, message] of CASES) {
    it(name, () => {
      const rules = [rule({ chain: 'input', action: 'accept' }), rule(input)];
      const { problems, script } = renderFirewall({
        rules,
        policies: defaultPolicies,
        variables: VARIABLES,
      });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatchObject({ rule: 1, field });
      expect(problems[0]?.message).toMatch(message);
      // The rest still renders, and the script stays valid.
      expect(script).toContain('# rule 1 left out: it has problems');
      expect(nftCheck(script)).toBeNull();
      // validateRuleset with the same variables agrees.
      expect(validateRuleset(rules, VARIABLES)).toEqual(problems);
    });
  }

  it('a long list of bad entries is summarized', () => {
    const source = Array.from({ length: 20 }, (_, i) => `bad${i}`).join(',');
    const { problems } = renderFirewall({
      rules: [rule({ chain: 'input', action: 'accept', source })],
      policies: defaultPolicies,
      variables: {},
    });
    expect(problems).toHaveLength(6);
    expect(problems[5]).toEqual({ rule: 0, field: 'source', message: 'and 15 more like these' });
  });

  it('reports every field of a rule at once', () => {
    const problems = validateRuleset([
      rule({
        chain: 'output',
        action: 'drop',
        source: '1.2.3',
        destination_ports: '22',
        in_interface: 'x',
      }),
    ]);
    expect(problems.map((p) => p.field).sort()).toEqual([
      'destination_ports',
      'in_interface',
      'source',
    ]);
  });
});

describe('validateRuleset', () => {
  const rules = [
    rule({ chain: 'input', action: 'accept', source: '$SOMETHING_NEW' }),
    rule({ chain: 'input', action: 'accept', protocol: 'tcp', destination_ports: '$WEB_PORTS' }),
    rule({ chain: 'input', action: 'drop', source: '$HOME-NET', enabled: false }),
  ];

  it('accepts variables it cannot know yet, but not malformed ones (disabled rules too)', () => {
    expect(validateRuleset(rules)).toEqual([
      { rule: 2, field: 'source', message: '"$HOME-NET" is not a variable name' },
    ]);
  });

  it('with a profile, checks the variables are there', () => {
    expect(validateRuleset(rules, {}).map((p) => `${p.rule}:${p.field}:${p.message}`)).toEqual([
      '0:source:unknown variable $SOMETHING_NEW',
      '1:destination_ports:unknown variable $WEB_PORTS',
      '2:source:"$HOME-NET" is not a variable name',
    ]);
  });

  it('renderFirewall skips disabled rules, problems and all', () => {
    const { problems } = renderFirewall({
      rules: [rules[2]!],
      policies: defaultPolicies,
      variables: {},
    });
    expect(problems).toEqual([]);
  });

  it("HOME_NET and EXTERNAL_NET default to Suricata's values when the profile has none", () => {
    const { script, problems } = renderFirewall({
      rules: [rule({ chain: 'input', action: 'accept', source: '$HOME_NET' })],
      policies: defaultPolicies,
      variables: {},
    });
    expect(problems).toEqual([]);
    expect(script).toContain('elements = { 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 }');
  });
});

describe('network problems (L3 mode)', () => {
  const bad = network({
    l3_mode: true,
    routes: [
      { address: '10.0.0.0/40', gateway: '10.0.0.1' },
      { address: '10.1.0.0/16', gateway: '2001:db8::1' },
      { address: '10.2.0.0/16' },
      { address: 'default', gateway: 'gw.example' },
    ],
    source_nat: [
      { out_interface: 'wan', source: '10.0.0.0/8', to_address: '2001:db8::5' },
      { out_interface: 'wan', to_address: '10.0.0.0/24' },
      { out_interface: 'wan', source: '$NOPE' },
    ],
    port_forwards: [
      { protocol: 'tcp', port: 80, to_address: 'inner-host' },
      { in_interface: 'wan', protocol: 'tcp', port: 443, to_address: '10.0.0.2' },
      { protocol: 'tcp', port: 443, to_address: '10.0.0.3' },
    ],
  });

  it('names the entry and its field', () => {
    const expected = [
      'source_nat.0.source: has no IPv6 address to translate to 2001:db8::5',
      'source_nat.1.to_address: "10.0.0.0/24" is not an address or an address range',
      'source_nat.2.source: unknown variable $NOPE',
      'port_forwards.0.to_address: "inner-host" is not an IP address',
      'port_forwards.2.port: tcp port 443 is already forwarded by port_forwards.1',
      'routes.0.address: "10.0.0.0/40" is not a CIDR block or \'default\'',
      'routes.1.gateway: an IPv6 gateway for an IPv4 destination',
      'routes.2.interface: a route needs a gateway or an interface',
      'routes.3.gateway: "gw.example" is not an IP address',
    ];
    const { problems, script } = renderFirewall({
      rules: [],
      policies: defaultPolicies,
      variables: {},
      network: bad,
    });
    expect(problems.map((p) => `${p.field}: ${p.message}`)).toEqual(expected);
    expect(problems.every((p) => p.rule === null)).toBe(true);
    expect(validateNetwork(bad, {}).map((p) => `${p.field}: ${p.message}`)).toEqual(expected);
    expect(nftCheck(script)).toBeNull();
  });

  it('outside L3 mode, NAT and routes are neither rendered nor checked', () => {
    const { problems, script } = renderFirewall({
      rules: [],
      policies: defaultPolicies,
      variables: {},
      network: { ...bad, l3_mode: false },
    });
    expect(problems).toEqual([]);
    expect(script).not.toMatch(/nat/);
  });
});
