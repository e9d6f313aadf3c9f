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
import type { SetRegistry } from './sets.js';
import { addressType } from './sets.js';
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

function addressMatch(
  field: ListField<AddressSet>,
  family: Family,
  selector: string,
  name: string,
  sets: SetRegistry,
): string | null {
  const match = familyMatch(field, family);
  if (match.kind !== 'match') return null;
  const operand = sets.operand({
    type: addressType(family),
    intervals: match.intervals,
    variable: field.variable,
    name: `${name}_v${family}`,
  });
  return `${family === 4 ? 'ip' : 'ip6'} ${selector} ${match.negate ? '!= ' : ''}${operand}`;
}

function portMatch(
  field: ListField<Interval[]>,
  selector: string,
  name: string,
  sets: SetRegistry,
): string | null {
  const match = constrain(field.value, MAX_PORT, field.negate);
  if (match.kind !== 'match') return null;
  const operand = sets.operand({
    type: 'inet_service',
    intervals: match.intervals,
    variable: field.variable,
    name,
  });
  return `${selector} ${match.negate ? '!= ' : ''}${operand}`;
}

function protocolMatches(plan: RulePlan, sets: SetRegistry): string[] {
  const { rule, index } = plan;
  const layer = rule.protocol === 'tcp_udp' ? 'th' : rule.protocol;
  const ports = [
    portMatch(plan.sourcePorts, `${layer} sport`, `_r${index}_sport`, sets),
    portMatch(plan.destinationPorts, `${layer} dport`, `_r${index}_dport`, sets),
  ].filter((text): text is string => text !== null);
  switch (rule.protocol) {
    case 'any':
      return [];
    case 'icmp':
      return ['meta l4proto icmp'];
    case 'icmpv6':
      return ['meta l4proto ipv6-icmp'];
    case 'tcp_udp':
      return ['meta l4proto { tcp, udp }', ...ports];
    case 'tcp':
    case 'udp':
      return ports.length > 0 ? ports : [`meta l4proto ${rule.protocol}`];
  }
}

/** The verdict; a reject answers TCP with a reset and everything else with admin-prohibited. */
function verdict(rule: FirewallRule): { text: string; usesRejectChain: boolean } {
  switch (rule.action) {
    case 'accept':
    case 'drop':
      return { text: rule.action, usesRejectChain: false };
    case 'reject':
      if (rule.protocol === 'tcp') return { text: 'reject with tcp reset', usesRejectChain: false };
      if (rule.protocol === 'tcp_udp' || rule.protocol === 'any') {
        return { text: `jump ${REJECT_CHAIN}`, usesRejectChain: true };
      }
      return { text: 'reject with icmpx type admin-prohibited', usesRejectChain: false };
  }
}

/** The nftables rules (without indentation) of a planned rule. */
export function emitRule(
  plan: RulePlan,
  sets: SetRegistry,
): { lines: string[]; usesRejectChain: boolean } {
  const { rule, index } = plan;
  const head: string[] = [];
  if (rule.in_interface !== '') head.push(`iifname ${quote(rule.in_interface)}`);
  if (rule.out_interface !== '') head.push(`oifname ${quote(rule.out_interface)}`);
  const tail = protocolMatches(plan, sets);
  if (rule.states.length > 0) {
    const states = [...new Set(rule.states)];
    tail.push(`ct state ${states.length === 1 ? states[0] : `{ ${states.join(', ')} }`}`);
  }
  if (rule.counter) tail.push('counter');
  if (rule.log) tail.push(`log prefix ${quote(`palisade r${index} ${rule.action}: `)}`);
  const { text, usesRejectChain } = verdict(rule);
  tail.push(text);
  if (rule.comment !== '') tail.push(`comment ${quote(rule.comment)}`);

  if (plan.families === null) return { lines: [[...head, ...tail].join(' ')], usesRejectChain };
  const lines = plan.families.map((family) => {
    const addresses = [
      addressMatch(plan.source, family, 'saddr', `_r${index}_saddr`, sets),
      addressMatch(plan.destination, family, 'daddr', `_r${index}_daddr`, sets),
    ].filter((text): text is string => text !== null);
    const impliedByProtocol = PROTOCOL_FAMILY[rule.protocol] !== undefined;
    if (addresses.length === 0 && !impliedByProtocol) {
      addresses.push(`meta nfproto ipv${family}`);
    }
    return [...head, ...addresses, ...tail].join(' ');
  });
  return { lines, usesRejectChain };
}
