// Named sets of the palisade table. Variables always get one (per address family); any other
// list longer than a few entries, or negated, gets one too, shared by every rule with the same
// elements, so a packet is matched against thousands of addresses in one set lookup. Short
// positive lists are written out as one rule per element instead.

import type { Interval } from './intervals.js';
import type { Family } from './ip.js';
import { formatInterval } from './ip.js';

export type SetType = 'ipv4_addr' | 'ipv6_addr' | 'inet_service';

/** Positive lists up to this long become one rule per element; longer ones named sets. */
export const INLINE_MAX = 4;
const PER_LINE = 8;

interface SetDeclaration {
  name: string;
  type: SetType;
  elements: string[];
}

export function addressType(family: Family): SetType {
  return family === 4 ? 'ipv4_addr' : 'ipv6_addr';
}

export function formatElements(type: SetType, intervals: readonly Interval[]): string[] {
  if (type === 'inet_service') {
    return intervals.map(({ lo, hi }) => (lo === hi ? String(lo) : `${lo}-${hi}`));
  }
  const family: Family = type === 'ipv4_addr' ? 4 : 6;
  return intervals.map((interval) => formatInterval(family, interval));
}

/** A variable's set name: `HOME_NET_v4`, `HOME_NET_v6`, `HTTP_PORTS`. */
export function variableSetName(variable: string, type: SetType): string {
  const base = /^[A-Za-z]/.test(variable) ? variable : `var_${variable}`;
  switch (type) {
    case 'ipv4_addr':
      return `${base}_v4`;
    case 'ipv6_addr':
      return `${base}_v6`;
    case 'inet_service':
      return base;
  }
}

export interface ListMatch {
  type: SetType;
  intervals: readonly Interval[];
  negate: boolean;
  variable: string | null;
  /** Name of the set if the list needs one (`_r12_saddr_v4`); lists with equal elements share. */
  name: string;
}

export class SetRegistry {
  private readonly byName = new Map<string, SetDeclaration>();
  private readonly byContent = new Map<string, string>();

  /** How many rules a match becomes when its list is written out one element per rule. */
  static alternatives(match: ListMatch): number {
    if (match.variable !== null || match.negate) return 1;
    const n = match.intervals.length;
    return n <= INLINE_MAX ? n : 1;
  }

  /**
   * The right-hand sides of a match: one element, a named set (`@HOME_NET_v4`, `@_r12_saddr_v4`),
   * or — when `expand` and the list is short and positive — its elements, one per rule. Never an
   * anonymous `{ a, b }` set: the kernel makes each one a set of its own, and thousands of them
   * make a transaction quadratic (see bench/firewall.bench.ts).
   */
  operands(match: ListMatch, expand: boolean): string[] {
    if (match.variable !== null) {
      const name = variableSetName(match.variable, match.type);
      if (!this.byName.has(name)) {
        const elements = formatElements(match.type, match.intervals);
        this.byName.set(name, { name, type: match.type, elements });
      }
      return [`@${name}`];
    }
    const elements = formatElements(match.type, match.intervals);
    if (elements.length === 1) return elements;
    if (expand && SetRegistry.alternatives(match) > 1) return elements;
    return [`@${this.named(match.type, elements, match.name)}`];
  }

  private named(type: SetType, elements: string[], name: string): string {
    const key = `${type}|${elements.join(',')}`;
    const existing = this.byContent.get(key);
    if (existing !== undefined) return existing;
    this.byContent.set(key, name);
    this.byName.set(name, { name, type, elements });
    return name;
  }

  /** Declarations, variables first (by name), then rule sets in order of first use. */
  render(indent: string): string[] {
    const all = [...this.byName.values()];
    const variables = all.filter((set) => !set.name.startsWith('_')).sort(byName);
    const lists = all.filter((set) => set.name.startsWith('_'));
    const lines: string[] = [];
    for (const set of [...variables, ...lists]) {
      lines.push(`${indent}set ${set.name} {`);
      lines.push(`${indent}\ttype ${set.type}`);
      lines.push(`${indent}\tflags interval`);
      if (set.elements.length <= PER_LINE) {
        lines.push(`${indent}\telements = { ${set.elements.join(', ')} }`);
      } else {
        lines.push(`${indent}\telements = {`);
        for (let i = 0; i < set.elements.length; i += PER_LINE) {
          const last = i + PER_LINE >= set.elements.length;
          lines.push(
            `${indent}\t\t${set.elements.slice(i, i + PER_LINE).join(', ')}${last ? '' : ','}`,
          );
        }
        lines.push(`${indent}\t}`);
      }
      lines.push(`${indent}}`);
    }
    return lines;
  }
}

function byName(a: SetDeclaration, b: SetDeclaration): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
