// Would a ruleset cut a device off? Evaluates, over the ruleset model (chains, policies, rule
// order, matches), the packets a device needs: its agent's connection to the server (new and
// established outgoing TCP, established replies) and loopback. What the device does not tell
// us (its own address, its ephemeral port, the interface the server is reached through) is
// unknown: a rule that matches only some values of an unknown is taken to match when it would
// stop the packet and not to when it would let it through, so the answer errs towards refusing.

import type { ChainPolicies, FirewallRule } from '@palisade/contract';
import type { Family } from './ip.js';
import { MAX, parseIP } from './ip.js';
import { MAX_PORT, Scope, constrain } from './resolve.js';
import type { ListField } from './resolve.js';
import type { Interval } from './intervals.js';
import type { RulePlan } from './rule.js';
import { familyMatch, planRule } from './rule.js';

/** One packet as a chain sees it; an absent field is unknown (any value is possible). */
export interface Packet {
  chain: FirewallRule['chain'];
  family: Family;
  protocol: 'tcp' | 'udp';
  state: FirewallRule['states'][number];
  saddr?: bigint;
  daddr?: bigint;
  sport?: number;
  dport?: number;
  iif?: string;
  oif?: string;
}

export type Verdict =
  | { accepted: true; rule: number | null }
  /** `rule` null: the chain's policy; `certain` false: the rule may match, depending on unknowns. */
  | { accepted: false; rule: number | null; certain: boolean };

type Match = 'yes' | 'no' | 'maybe';

const both = (a: Match, b: Match): Match =>
  a === 'no' || b === 'no' ? 'no' : a === 'maybe' || b === 'maybe' ? 'maybe' : 'yes';

const inIntervals = (value: bigint, intervals: readonly Interval[]) =>
  intervals.some((interval) => interval.lo <= value && value <= interval.hi);

function addressMatch(
  field: ListField<{ 4: Interval[]; 6: Interval[] }>,
  packet: Packet,
  value: bigint | undefined,
): Match {
  const match = familyMatch(field, packet.family);
  if (match.kind === 'all') return 'yes';
  if (match.kind === 'none') return 'no';
  if (value === undefined) return 'maybe';
  return inIntervals(value, match.intervals) !== match.negate ? 'yes' : 'no';
}

function portMatch(field: ListField<Interval[]>, value: number | undefined): Match {
  const match = constrain(field.value, MAX_PORT, field.negate);
  if (match.kind === 'all') return 'yes';
  if (match.kind === 'none') return 'no';
  if (value === undefined) return 'maybe';
  return inIntervals(BigInt(value), match.intervals) !== match.negate ? 'yes' : 'no';
}

const interfaceMatch = (wanted: string, value: string | undefined): Match =>
  wanted === '' ? 'yes' : value === undefined ? 'maybe' : wanted === value ? 'yes' : 'no';

function ruleMatch(plan: RulePlan, packet: Packet): Match {
  const { rule } = plan;
  if (rule.chain !== packet.chain) return 'no';
  const protocolOk =
    rule.protocol === 'any' ||
    rule.protocol === packet.protocol ||
    (rule.protocol === 'tcp_udp' && (packet.protocol === 'tcp' || packet.protocol === 'udp'));
  if (!protocolOk) return 'no';
  if (plan.families !== null && !plan.families.includes(packet.family)) return 'no';
  if (rule.states.length > 0 && !rule.states.includes(packet.state)) return 'no';
  return [
    interfaceMatch(rule.in_interface, packet.iif),
    interfaceMatch(rule.out_interface, packet.oif),
    addressMatch(plan.source, packet, packet.saddr),
    addressMatch(plan.destination, packet, packet.daddr),
    portMatch(plan.sourcePorts, packet.sport),
    portMatch(plan.destinationPorts, packet.dport),
  ].reduce(both, 'yes');
}

/** The rules a device is given, planned once: disabled rules and rules with problems left out. */
export function planRuleset(
  rules: readonly FirewallRule[],
  variables: Record<string, string>,
): RulePlan[] {
  const scope = new Scope(variables);
  return rules.flatMap((rule, index) => {
    if (!rule.enabled) return [];
    const { plan } = planRule(rule, index, scope);
    return plan === null ? [] : [plan];
  });
}

/** What the chain does with the packet: the first rule that matches decides, else the policy. */
export function evaluate(
  plans: readonly RulePlan[],
  policies: ChainPolicies,
  packet: Packet,
): Verdict {
  for (const plan of plans) {
    const match = ruleMatch(plan, packet);
    if (match === 'no') continue;
    const accepts = plan.rule.action === 'accept';
    if (match === 'yes') {
      return accepts
        ? { accepted: true, rule: plan.index }
        : { accepted: false, rule: plan.index, certain: true };
    }
    // An accept that may not match guarantees nothing; a drop that may match is a risk.
    if (!accepts) return { accepted: false, rule: plan.index, certain: false };
  }
  return policies[packet.chain] === 'accept'
    ? { accepted: true, rule: null }
    : { accepted: false, rule: null, certain: true };
}

/** The server as the device reaches it. */
export interface ServerEndpoint {
  address: string;
  port: number;
}

export interface LockoutInput {
  rules: readonly FirewallRule[];
  policies: ChainPolicies;
  variables: Record<string, string>;
  server: ServerEndpoint;
}

export interface LockoutProblem {
  /** What would be lost. */
  traffic: 'server' | 'loopback';
  chain: FirewallRule['chain'];
  /** The rule (index in the ruleset) that stops it; null when the chain's policy does. */
  rule: number | null;
  /** false: the rule stops it for some values of what the server does not know (ports, interfaces). */
  certain: boolean;
  /** What is stopped and the rule that would let it through. */
  message: string;
}

/** The packets a device cannot do without, and the rule that lets each through. */
function neededPackets(server: ServerEndpoint, family: Family, address: bigint) {
  const endpoint =
    family === 6 ? `[${server.address}]:${server.port}` : `${server.address}:${server.port}`;
  const loopback = family === 6 ? 1n : 0x7f000001n;
  const establishedFix = 'rule accepting states established,related';
  return [
    {
      traffic: 'server' as const,
      what: `new tcp to ${endpoint}`,
      fix: `an output rule accepting tcp to ${server.address} port ${server.port}, or an output policy of accept`,
      packet: {
        chain: 'output',
        family,
        protocol: 'tcp',
        state: 'new',
        daddr: address,
        dport: server.port,
      } satisfies Packet,
    },
    {
      traffic: 'server' as const,
      what: `established tcp to ${endpoint}`,
      fix: `an output ${establishedFix}`,
      packet: {
        chain: 'output',
        family,
        protocol: 'tcp',
        state: 'established',
        daddr: address,
        dport: server.port,
      } satisfies Packet,
    },
    {
      traffic: 'server' as const,
      what: `the replies from ${endpoint}`,
      fix: `an input ${establishedFix}`,
      packet: {
        chain: 'input',
        family,
        protocol: 'tcp',
        state: 'established',
        saddr: address,
        sport: server.port,
      } satisfies Packet,
    },
    {
      traffic: 'loopback' as const,
      what: 'loopback traffic coming in',
      fix: 'an input rule accepting in_interface lo',
      packet: {
        chain: 'input',
        family,
        protocol: 'tcp',
        state: 'new',
        saddr: loopback,
        daddr: loopback,
        iif: 'lo',
      } satisfies Packet,
    },
    {
      traffic: 'loopback' as const,
      what: 'loopback traffic going out',
      fix: 'an output rule accepting out_interface lo, or an output policy of accept',
      packet: {
        chain: 'output',
        family,
        protocol: 'tcp',
        state: 'new',
        saddr: loopback,
        daddr: loopback,
        oif: 'lo',
      } satisfies Packet,
    },
  ];
}

/**
 * What the device would lose under this ruleset: nothing (an empty list) when its agent can
 * still reach the server and loopback works. Throws when the server's address is not an IP.
 */
export function checkLockout(input: LockoutInput): LockoutProblem[] {
  const address = parseIP(input.server.address);
  if (address === null) throw new Error(`not an IP address: ${input.server.address}`);
  if (address.value > MAX[address.family])
    throw new Error(`not an IP address: ${input.server.address}`);
  const plans = planRuleset(input.rules, input.variables);
  const problems: LockoutProblem[] = [];
  for (const needed of neededPackets(input.server, address.family, address.value)) {
    const verdict = evaluate(plans, input.policies, needed.packet);
    if (verdict.accepted) continue;
    const by =
      verdict.rule === null
        ? `the ${needed.packet.chain} policy drops`
        : `${needed.packet.chain} rule ${verdict.rule + 1} (${input.rules[verdict.rule]?.action ?? ''}) ${verdict.certain ? 'stops' : 'may stop'}`;
    problems.push({
      traffic: needed.traffic,
      chain: needed.packet.chain,
      rule: verdict.rule,
      certain: verdict.certain,
      message: `${by} ${needed.what}: add ${needed.fix}${verdict.rule === null ? '' : ' before it'}`,
    });
  }
  return problems;
}
