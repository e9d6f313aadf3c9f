import type {
  ConnectionState,
  FirewallAction,
  FirewallChain,
  FirewallProtocol,
} from '@palisade/contract';
import type { z } from 'zod';

type Chain = z.infer<typeof FirewallChain>;
type Action = z.infer<typeof FirewallAction>;
type Protocol = z.infer<typeof FirewallProtocol>;
type State = z.infer<typeof ConnectionState>;

/** Translation keys of the contract's enums (each declared once, in the contract). */
export const CHAIN_KEY = {
  input: 'firewall.chain.input',
  forward: 'firewall.chain.forward',
  output: 'firewall.chain.output',
} as const satisfies Record<Chain, string>;

export const ACTION_KEY = {
  accept: 'firewall.action.accept',
  drop: 'firewall.action.drop',
  reject: 'firewall.action.reject',
} as const satisfies Record<Action, string>;

export const ACTION_COLOR = {
  accept: 'success',
  drop: 'error',
  reject: 'warning',
} as const satisfies Record<Action, 'success' | 'error' | 'warning'>;

export const PROTOCOL_KEY = {
  any: 'firewall.protocol.any',
  tcp: 'firewall.protocol.tcp',
  udp: 'firewall.protocol.udp',
  icmp: 'firewall.protocol.icmp',
  icmpv6: 'firewall.protocol.icmpv6',
  tcp_udp: 'firewall.protocol.tcpUdp',
} as const satisfies Record<Protocol, string>;

export const STATE_KEY = {
  new: 'firewall.state.new',
  established: 'firewall.state.established',
  related: 'firewall.state.related',
  invalid: 'firewall.state.invalid',
} as const satisfies Record<State, string>;
