// One firewall rule → zero, one or two nftables rules (one per address family when the
// addresses need it), or the problems that stop it from being rendered.

import type { FirewallRule } from '@palisade/contract';
import type { Interval } from './intervals.js';
import type { Family } from './ip.js';
import { MAX } from './ip.js';
import type { Problem } from './problems.js';
import { fieldProblems } from './problems.js';
import type { AddressSet, FamilyMatch, ListField, Scope } from './resolve.js';
import { MAX_PORT, constrain, readAddressField, readPortField } from './resolve.js';
import type { ListMatch } from './sets.js';
import { SetRegistry, addressType } from './sets.js';
import { quote } from './text.js';

export const REJECT_CHAIN = 'reject_packet';

export interface RulePlan {
  index: number;
  rule: FirewallRule;
  /** null: one rule for both families; else one rule per listed family. */
  families: Family[] | null;
  source: ListField<AddressSet>;
  destination: ListField<AddressSet>;
  sourcePorts: ListField<Interval[]>;
  destinationPorts: ListField<Interval[]>;
}

type AddressRole = 'source' | 'destination';

const PROTOCOL_FAMILY: Partial<Record<FirewallRule['protocol'], Family>> = {
  icmp: 4,
  icmpv6: 6,
};

export function planRule(
  rule: FirewallRule,
  index: number,
  scope: Scope,
): { plan: RulePlan | null; problems: Problem[] } {
  const problems: Problem[] = [];
  const field = <T>(
    name: string,
    result: { ok: true; field: ListField<T> } | { ok: false; messages: string[] },
  ): ListField<T> | null => {
    if (result.ok) return result.field;
    problems.push(...fieldProblems(index, name, result.messages));
    return null;
  };
  const source = field('source', readAddressField(rule.source, scope));
  const destination = field('destination', readAddressField(rule.destination, scope));
  const sourcePorts = field('source_ports', readPortField(rule.source_ports, scope));
  const destinationPorts = field('destination_ports', readPortField(rule.destination_ports, scope));

  const hasPorts =
    rule.protocol === 'tcp' || rule.protocol === 'udp' || rule.protocol === 'tcp_udp';
  for (const [name, ports] of [
    ['source_ports', sourcePorts],
    ['destination_ports', destinationPorts],
  ] as const) {
    if (ports === null) continue;
    const match = constrain(ports.value, MAX_PORT, ports.negate);
    if (match.kind === 'none') {
      problems.push({ rule: index, field: name, message: 'matches no port' });
    } else if (match.kind === 'match' && !hasPorts) {
      problems.push({
        rule: index,
        field: name,
        message: `ports need protocol tcp, udp or tcp_udp, not ${rule.protocol}`,
      });
    }
  }
  if (rule.chain === 'output' && rule.in_interface !== '') {
    problems.push({
      rule: index,
      field: 'in_interface',
      message: 'the output chain has no input interface',
    });
  }
  if (rule.chain === 'input' && rule.out_interface !== '') {
    problems.push({
      rule: index,
      field: 'out_interface',
      message: 'the input chain has no output interface',
    });
  }
  if (source === null || destination === null || sourcePorts === null || destinationPorts === null)
    return { plan: null, problems };

  const families = planFamilies(rule, index, { source, destination }, problems);
  if (problems.length > 0 || families === undefined) return { plan: null, problems };
  return {
    plan: { index, rule, families, source, destination, sourcePorts, destinationPorts },
    problems,
  };
}

/** Which address families the rule is written for; undefined when it can match nothing. */
function planFamilies(
  rule: FirewallRule,
  index: number,
  fields: Record<AddressRole, ListField<AddressSet>>,
  problems: Problem[],
): Family[] | null | undefined {
  const possible: Family[] = [];
  let constrained = PROTOCOL_FAMILY[rule.protocol] !== undefined;
  for (const family of [4, 6] as const) {
    const wanted = PROTOCOL_FAMILY[rule.protocol];
    let ok = wanted === undefined || wanted === family;
    for (const role of ['source', 'destination'] as const) {
      const match = familyMatch(fields[role], family);
      if (match.kind === 'none') ok = false;
      if (match.kind !== 'all') constrained = true;
    }
    if (ok) possible.push(family);
  }
  if (possible.length === 0) {
    for (const role of ['source', 'destination'] as const) {
      const f = fields[role];
      if (familyMatch(f, 4).kind === 'none' && familyMatch(f, 6).kind === 'none') {
        problems.push({ rule: index, field: role, message: 'matches no address' });
        return undefined;
      }
    }
    problems.push({
      rule: index,
      field: PROTOCOL_FAMILY[rule.protocol] === undefined ? 'destination' : 'protocol',
      message: `can never match: ${describeFamilies(rule, fields)}`,
    });
    return undefined;
  }
  return constrained ? possible : null;
}

function describeFamilies(
  rule: FirewallRule,
  fields: Record<AddressRole, ListField<AddressSet>>,
): string {
  const parts: string[] = [];
  const wanted = PROTOCOL_FAMILY[rule.protocol];
  if (wanted !== undefined) parts.push(`protocol ${rule.protocol} is IPv${wanted} only`);
  for (const role of ['source', 'destination'] as const) {
    const v4 = familyMatch(fields[role], 4).kind !== 'none';
    const v6 = familyMatch(fields[role], 6).kind !== 'none';
    if (v4 !== v6) parts.push(`${role} is IPv${v4 ? 4 : 6} only`);
  }
  return parts.join(', ');
}

export function familyMatch(field: ListField<AddressSet>, family: Family): FamilyMatch {
  return constrain(field.value[family], MAX[family], field.negate);
}

/** Rules one console rule may become by writing out short lists (per address family). */
export const MAX_EXPANSION = 8;

type Protocol = 'any' | 'tcp' | 'udp' | 'icmp' | 'icmpv6';

interface Selected extends ListMatch {
  /** `ip saddr`; for ports `sport`/`dport`, prefixed with the protocol of each line. */
  selector: string;
  expand: boolean;
}

function addressList(
  field: ListField<AddressSet>,
  family: Family,
  selector: 'saddr' | 'daddr',
  name: string,
): Selected | null {
  const match = familyMatch(field, family);
  if (match.kind !== 'match') return null;
  return {
    selector: `${family === 4 ? 'ip' : 'ip6'} ${selector}`,
    type: addressType(family),
    intervals: match.intervals,
    negate: match.negate,
    variable: field.variable,
    name: `${name}_v${family}`,
    expand: true,
  };
}

function portList(
  field: ListField<Interval[]>,
  selector: 'sport' | 'dport',
  name: string,
): Selected | null {
  const match = constrain(field.value, MAX_PORT, field.negate);
  if (match.kind !== 'match') return null;
  return {
    selector,
    type: 'inet_service',
    intervals: match.intervals,
    negate: match.negate,
    variable: field.variable,
    name,
    expand: true,
  };
}

/** Keeps the product of written-out lists within MAX_EXPANSION; the longest become sets. */
function limitExpansion(lists: Selected[], protocols: number): void {
  for (;;) {
    let product = protocols;
    let longest: Selected | null = null;
    for (const list of lists) {
      if (!list.expand) continue;
      const n = SetRegistry.alternatives(list);
      product *= n;
      if (n > 1 && (longest === null || n > SetRegistry.alternatives(longest))) longest = list;
    }
    if (product <= MAX_EXPANSION || longest === null) return;
    longest.expand = false;
  }
}

/** Every combination of one alternative per list. */
function combinations(lists: string[][]): string[][] {
  return lists.reduce<string[][]>(
    (acc, alternatives) => acc.flatMap((prefix) => alternatives.map((alt) => [...prefix, alt])),
    [[]],
  );
}

function protocolMatch(protocol: Protocol, ports: string[]): string[] {
  switch (protocol) {
    case 'any':
      return [];
    case 'icmp':
      return ['meta l4proto icmp'];
    case 'icmpv6':
      return ['meta l4proto ipv6-icmp'];
    case 'tcp':
    case 'udp':
      return ports.length > 0 ? ports : [`meta l4proto ${protocol}`];
  }
}

/** A reject answers TCP with a reset and everything else with admin-prohibited. */
function verdict(action: FirewallRule['action'], protocol: Protocol): string {
  switch (action) {
    case 'accept':
    case 'drop':
      return action;
    case 'reject':
      if (protocol === 'tcp') return 'reject with tcp reset';
      if (protocol === 'any') return `jump ${REJECT_CHAIN}`;
      return 'reject with icmpx type admin-prohibited';
  }
}

/**
 * The nftables rules (without indentation) of a planned rule: one per address family when the
 * addresses need it, one per protocol for tcp_udp, and one per element of a short list.
 */
export function emitRule(
  plan: RulePlan,
  sets: SetRegistry,
): { lines: string[]; usesRejectChain: boolean } {
  const { rule, index } = plan;
  const head: string[] = [];
  if (rule.in_interface !== '') head.push(`iifname ${quote(rule.in_interface)}`);
  if (rule.out_interface !== '') head.push(`oifname ${quote(rule.out_interface)}`);
  const tail: string[] = [];
  if (rule.states.length > 0) tail.push(`ct state ${[...new Set(rule.states)].join(',')}`);
  if (rule.counter) tail.push('counter');
  if (rule.log) tail.push(`log prefix ${quote(`palisade r${index + 1} ${rule.action}: `)}`);
  const comment = rule.comment === '' ? [] : [`comment ${quote(rule.comment)}`];
  const protocols: Protocol[] = rule.protocol === 'tcp_udp' ? ['tcp', 'udp'] : [rule.protocol];
  const usesRejectChain = rule.action === 'reject' && rule.protocol === 'any';

  const lines: string[] = [];
  for (const family of plan.families ?? [null]) {
    const addresses =
      family === null
        ? []
        : [
            addressList(plan.source, family, 'saddr', `_r${index}_saddr`),
            addressList(plan.destination, family, 'daddr', `_r${index}_daddr`),
          ].filter((list): list is Selected => list !== null);
    const ports = [
      portList(plan.sourcePorts, 'sport', `_r${index}_sport`),
      portList(plan.destinationPorts, 'dport', `_r${index}_dport`),
    ].filter((list): list is Selected => list !== null);
    limitExpansion([...addresses, ...ports], protocols.length);
    const write = (list: Selected) =>
      sets.operands(list, list.expand).map((operand) => (list.negate ? `!= ${operand}` : operand));
    const addressOperands = addresses.map(write);
    const portOperands = ports.map(write);
    const familyWords =
      family !== null && addresses.length === 0 && PROTOCOL_FAMILY[rule.protocol] === undefined
        ? [`meta nfproto ipv${family}`]
        : [];
    for (const protocol of protocols) {
      for (const chosenAddresses of combinations(addressOperands)) {
        for (const chosenPorts of combinations(portOperands)) {
          const words = [
            ...head,
            ...familyWords,
            ...chosenAddresses.map((operand, i) => `${addresses[i]?.selector ?? ''} ${operand}`),
            ...protocolMatch(
              protocol,
              chosenPorts.map((operand, i) => `${protocol} ${ports[i]?.selector ?? ''} ${operand}`),
            ),
            ...tail,
            verdict(rule.action, protocol),
            ...comment,
          ];
          lines.push(words.join(' '));
        }
      }
    }
  }
  return { lines, usesRejectChain };
}
