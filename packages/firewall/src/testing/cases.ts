// Rulesets the golden tests render: each becomes __golden__/<name>.nft.

import { ChainPolicies, DeviceNetwork, FirewallRule } from '@palisade/contract';
import type { DeviceNetworkInput, FirewallRuleInput } from '@palisade/contract';
import type { FirewallInput } from '../render.js';

export const rule = (input: FirewallRuleInput): FirewallRule => FirewallRule.parse(input);
export const network = (input: DeviceNetworkInput): DeviceNetwork => DeviceNetwork.parse(input);
export const defaultPolicies: ChainPolicies = ChainPolicies.parse({});

export const PROFILE: Record<string, string> = {
  HOME_NET: '[10.0.0.0/8,192.168.0.0/16,!10.99.0.0/16,2001:db8:10::/48]',
  EXTERNAL_NET: '!$HOME_NET',
  DNS_SERVERS: '[10.0.0.53,10.0.1.53,2001:db8:10::53]',
  HTTP_PORTS: '[80,443,8000:8099]',
  SSH_PORTS: '22',
  ADMIN_NET: '[192.168.10.0/24,192.168.11.0/24]',
};

export const CASES: Record<string, FirewallInput> = {
  empty: { rules: [], policies: defaultPolicies, variables: {} },

  'open-policies': {
    rules: [],
    policies: { input: 'accept', forward: 'accept', output: 'accept' },
    variables: {},
  },

  'host-basics': {
    policies: defaultPolicies,
    variables: PROFILE,
    rules: [
      rule({ chain: 'input', action: 'accept', in_interface: 'lo', counter: false }),
      rule({ chain: 'input', action: 'accept', states: ['established', 'related'] }),
      rule({ chain: 'input', action: 'drop', states: ['invalid'], log: true }),
      rule({
        chain: 'input',
        action: 'accept',
        protocol: 'tcp',
        source: '$ADMIN_NET',
        destination_ports: '$SSH_PORTS',
        states: ['new'],
        comment: 'SSH from the admin LAN',
      }),
      rule({ chain: 'input', action: 'accept', protocol: 'icmp' }),
      rule({ chain: 'input', action: 'accept', protocol: 'icmpv6' }),
      rule({
        chain: 'input',
        action: 'reject',
        protocol: 'tcp',
        destination_ports: '23',
        log: true,
        comment: 'no telnet',
      }),
      rule({ chain: 'input', action: 'reject', protocol: 'any', source: '$EXTERNAL_NET' }),
      rule({
        chain: 'output',
        action: 'accept',
        protocol: 'udp',
        destination: '$DNS_SERVERS',
        destination_ports: '53',
      }),
      rule({
        chain: 'output',
        action: 'drop',
        enabled: false,
        comment: 'disabled: never rendered',
      }),
    ],
  },

  'addresses-and-families': {
    policies: defaultPolicies,
    variables: PROFILE,
    rules: [
      rule({ chain: 'input', action: 'accept', source: '10.1.2.3' }),
      rule({ chain: 'input', action: 'accept', source: '10.1.2.3/24, 10.1.3.0/24' }),
      rule({ chain: 'input', action: 'accept', source: '172.16.0.5-172.16.0.20 2001:db8::1' }),
      rule({ chain: 'input', action: 'drop', source: '!$HOME_NET' }),
      rule({ chain: 'input', action: 'drop', destination: '!192.0.2.0/24' }),
      rule({
        chain: 'forward',
        action: 'accept',
        source: '$HOME_NET',
        destination: '$EXTERNAL_NET',
      }),
      rule({ chain: 'forward', action: 'drop', source: 'any', destination: '2001:db8:ffff::/48' }),
      rule({ chain: 'forward', action: 'reject', protocol: 'udp', source: '::/0' }),
      rule({
        chain: 'forward',
        action: 'drop',
        source:
          '198.51.100.1 198.51.100.3 198.51.100.5 198.51.100.7 198.51.100.9 203.0.113.0/25 203.0.113.128/25',
        comment: 'long list: named set',
      }),
      rule({
        chain: 'forward',
        action: 'drop',
        destination:
          '198.51.100.1,198.51.100.3,198.51.100.5,198.51.100.7,198.51.100.9,203.0.113.0/24',
        comment: 'same elements: same set',
      }),
      rule({ chain: 'input', action: 'accept', source: '192.0.2.1, 192.0.2.3' }),
      rule({ chain: 'input', action: 'drop', source: '!192.0.2.1, 192.0.2.3' }),
      rule({
        chain: 'input',
        action: 'accept',
        protocol: 'tcp_udp',
        source: '192.0.2.1 192.0.2.3 192.0.2.5',
        destination_ports: '1,3,5,7',
        comment: '2 × 3 × 4 > 8 lines: the longest list becomes a set',
      }),
    ],
  },

  ports: {
    policies: defaultPolicies,
    variables: PROFILE,
    rules: [
      rule({ chain: 'input', action: 'accept', protocol: 'tcp', destination_ports: '80,443' }),
      rule({
        chain: 'input',
        action: 'accept',
        protocol: 'udp',
        source_ports: '53',
        destination_ports: '1024-65535',
      }),
      rule({
        chain: 'input',
        action: 'accept',
        protocol: 'tcp_udp',
        destination_ports: '$HTTP_PORTS',
      }),
      rule({ chain: 'input', action: 'drop', protocol: 'tcp', destination_ports: '!22' }),
      rule({
        chain: 'input',
        action: 'reject',
        protocol: 'tcp_udp',
        destination_ports: '135 137-139 445 593 1433 1434 3389',
        log: true,
      }),
      rule({ chain: 'forward', action: 'accept', protocol: 'tcp', destination_ports: '0-65535' }),
    ],
  },

  'interfaces-states-text': {
    policies: { input: 'drop', forward: 'drop', output: 'drop' },
    variables: {},
    rules: [
      rule({
        chain: 'forward',
        action: 'accept',
        in_interface: 'lan0',
        out_interface: 'wan0',
        states: ['new', 'established', 'related', 'new'],
      }),
      rule({
        chain: 'forward',
        action: 'accept',
        in_interface: 'wan0',
        out_interface: 'lan0',
        states: ['established', 'related'],
      }),
      rule({
        chain: 'output',
        action: 'accept',
        out_interface: 'eth0.100',
        counter: false,
        log: true,
      }),
      rule({
        chain: 'input',
        action: 'accept',
        comment: 'quotes "double" \\back\\slash, ünïcödé → ok # not a comment',
      }),
      rule({ chain: 'input', action: 'drop', comment: 'x'.repeat(140) + ' (cut at 128 bytes)' }),
      rule({ chain: 'input', action: 'drop', comment: 'é'.repeat(100) }),
    ],
  },

  'l3-router': {
    policies: { input: 'drop', forward: 'drop', output: 'accept' },
    variables: { HOME_NET: '[10.10.0.0/16]', LAN_NET: '[10.10.1.0/24,10.10.2.0/24]' },
    rules: [
      rule({ chain: 'input', action: 'accept', states: ['established', 'related'] }),
      rule({ chain: 'forward', action: 'accept', states: ['established', 'related'] }),
      rule({ chain: 'forward', action: 'accept', in_interface: 'lan', source: '$LAN_NET' }),
    ],
    network: network({
      l3_mode: true,
      routes: [{ address: '10.20.0.0/16', gateway: '10.10.1.254', metric: 100 }],
      source_nat: [
        { out_interface: 'wan', source: '$LAN_NET' },
        { out_interface: 'wan2', source: '10.10.3.0/24', to_address: '203.0.113.9' },
        { out_interface: 'wan2', to_address: '203.0.113.10-203.0.113.12' },
        { out_interface: 'wan6', source: '2001:db8:10::/48' },
        { out_interface: 'wan' },
      ],
      port_forwards: [
        {
          in_interface: 'wan',
          protocol: 'tcp',
          port: 8080,
          to_address: '10.10.1.20',
          to_port: 80,
          comment: 'web',
        },
        { in_interface: '', protocol: 'udp', port: 5353, to_address: '10.10.1.21' },
        { in_interface: 'wan6', protocol: 'tcp', port: 443, to_address: '2001:db8:10::20' },
      ],
    }),
  },

  'not-l3-mode': {
    policies: defaultPolicies,
    variables: {},
    rules: [],
    network: network({
      l3_mode: false,
      source_nat: [{ out_interface: 'wan' }],
      port_forwards: [{ protocol: 'tcp', port: 80, to_address: '10.0.0.2' }],
    }),
  },
};
