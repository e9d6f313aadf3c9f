import { z } from 'zod';
import { SafeString } from './common.js';
import { ExpiryFields } from './expiry.js';

export const FirewallChain = z.enum(['input', 'forward', 'output']);
export const FirewallAction = z.enum(['accept', 'drop', 'reject']);
export const FirewallProtocol = z.enum(['any', 'tcp', 'udp', 'icmp', 'icmpv6', 'tcp_udp']);
export const ConnectionState = z.enum(['new', 'established', 'related', 'invalid']);

/**
 * An address list as users write it: addresses, CIDR blocks, ranges (`10.0.0.1-10.0.0.9`),
 * profile variables (`$HOME_NET`), `!` to negate the whole list; comma- or space-separated.
 * Empty means any.
 */
const AddressList = SafeString.trim().max(1_000_000).default('');
/** Ports and ranges: `22`, `80,443`, `8000-8080`; empty means any; needs tcp, udp or tcp_udp. */
const PortList = SafeString.trim().max(10_000).default('');
const InterfaceName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_.:@-]{0,15}$/, 'Not valid')
  .default('');

export const FirewallRule = z.object({
  chain: FirewallChain,
  action: FirewallAction,
  protocol: FirewallProtocol.default('any'),
  source: AddressList,
  destination: AddressList,
  source_ports: PortList,
  destination_ports: PortList,
  /** Input interface (input/forward chains). */
  in_interface: InterfaceName,
  /** Output interface (forward/output chains). */
  out_interface: InterfaceName,
  /** Empty: any state. */
  states: z.array(ConnectionState).max(4).default([]),
  log: z.boolean().default(false),
  counter: z.boolean().default(true),
  comment: SafeString.trim().max(200).default(''),
  enabled: z.boolean().default(true),
  ...ExpiryFields,
});
export type FirewallRule = z.infer<typeof FirewallRule>;
export type FirewallRuleInput = z.input<typeof FirewallRule>;

export const ChainPolicies = z.object({
  input: z.enum(['accept', 'drop']).default('drop'),
  forward: z.enum(['accept', 'drop']).default('drop'),
  output: z.enum(['accept', 'drop']).default('accept'),
});
export type ChainPolicies = z.infer<typeof ChainPolicies>;

export const FirewallRuleset = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  policies: ChainPolicies,
  /** In order: the first rule that matches decides. */
  rules: z.array(FirewallRule),
  device_count: z.number().int(),
  updated_at: z.string(),
});
export type FirewallRuleset = z.infer<typeof FirewallRuleset>;

export const FirewallRulesetWrite = z.object({
  name: SafeString.trim().min(1, 'Required').max(200),
  description: SafeString.trim().max(2000).default(''),
  policies: ChainPolicies.default({ input: 'drop', forward: 'drop', output: 'accept' }),
  rules: z.array(FirewallRule).max(100_000).default([]),
  /** Administrators only: save even when a device it reaches would lose the server. */
  override_lockout: z.boolean().default(false),
});
export type FirewallRulesetWriteInput = z.input<typeof FirewallRulesetWrite>;

/** An L3 route of a device: `ip route replace <destination> via <gateway> dev <interface> metric <metric>`. */
export const Route = z.object({
  /** CIDR block or `default`. */
  address: SafeString.trim().min(1, 'Required').max(100),
  gateway: SafeString.trim().max(100).default(''),
  metric: z.number().int().min(0).max(4_294_967_295).nullable().default(null),
  interface: InterfaceName,
});
export type Route = z.infer<typeof Route>;

/** Source NAT on the way out of an interface: masquerade, or SNAT to a fixed address. */
export const SourceNat = z.object({
  out_interface: InterfaceName.refine((name) => name !== '', 'Required'),
  source: AddressList,
  /** Empty: masquerade (the interface's own address). */
  to_address: SafeString.trim().max(100).default(''),
});

/** A port forward: traffic to `in_interface`:`port` goes to `to_address`:`to_port`. */
export const PortForward = z.object({
  in_interface: InterfaceName,
  protocol: z.enum(['tcp', 'udp']),
  port: z.number().int().min(1).max(65535),
  to_address: SafeString.trim().min(1, 'Required').max(100),
  to_port: z.number().int().min(1).max(65535).nullable().default(null),
  comment: SafeString.trim().max(200).default(''),
});

export const DeviceNetwork = z.object({
  /** L3 mode: the device routes; its routes and NAT are managed. */
  l3_mode: z.boolean().default(false),
  routes: z.array(Route).max(10_000).default([]),
  source_nat: z.array(SourceNat).max(1000).default([]),
  port_forwards: z.array(PortForward).max(10_000).default([]),
});
export type DeviceNetwork = z.infer<typeof DeviceNetwork>;
export type DeviceNetworkInput = z.input<typeof DeviceNetwork>;

/** PUT /devices/{id}/network: the routes and NAT, and the lock-out check's override. */
export const DeviceNetworkWrite = DeviceNetwork.extend({
  /** Administrators only: save even when the path to the server moves to another route. */
  override_lockout: z.boolean().default(false),
});
export type DeviceNetworkWrite = z.infer<typeof DeviceNetworkWrite>;

/** What a device will receive for its firewall, routes and NAT, and why not if it cannot. */
export const DeviceFirewallPreview = z.object({
  config_version: z.number().int(),
  nftables: z.string().nullable(),
  routes: z.string().nullable(),
  problems: z.array(
    z.object({ rule: z.number().int().nullable(), field: z.string(), message: z.string() }),
  ),
});

/** The windows the ruleset editor shows hits over. */
export const HIT_WINDOWS = [1, 7, 30] as const;
export const FirewallHitsQuery = z.object({
  days: z.coerce
    .number()
    .int()
    .refine((days) => (HIT_WINDOWS as readonly number[]).includes(days), 'One of 1, 7 or 30')
    .default(30),
});

/** One rule's hits over the window, summed over the devices that run the ruleset. */
export const FirewallRuleHits = z.object({
  packets: z.number().int(),
  bytes: z.number().int(),
  /** Some device running the ruleset reported this rule's counter in the last 30 days. */
  reported: z.boolean(),
  /** Reported, and no packet matched it in the last 30 days on any device. */
  idle: z.boolean(),
});
export type FirewallRuleHits = z.infer<typeof FirewallRuleHits>;

export const FirewallHits = z.object({
  days: z.number().int(),
  /** In the ruleset's rule order. */
  rules: z.array(FirewallRuleHits),
});
export type FirewallHits = z.infer<typeof FirewallHits>;
