import { BlockList, isIP } from 'node:net';
import { parseAddressSpec, type AddressSpec } from '@palisade/rules';

/**
 * Whether an address falls in a Suricata address specification as a suppression's `ip` is
 * written: `10.0.0.5`, `10.1.0.0/16`, `10.0.0.1-10.0.0.9`, `!x`, `[a, b, !c]`, `any` and
 * `$VARIABLES` from the device's profile. A list matches an address that one of its positive
 * entries holds (any address when it has none) and none of its negated entries holds.
 */
export interface AddressMatcher {
  matches(ip: string | null): boolean;
  /** Variables the specification names that `variables` did not set: they match nothing. */
  unresolved: string[];
}

/** Variables within variables are followed this deep, no further (a loop matches nothing). */
const MAX_VARIABLE_DEPTH = 8;

type Test = (ip: string, family: 'ipv4' | 'ipv6') => boolean;

function leaf(value: string): Test {
  const list = new BlockList();
  const slash = value.indexOf('/');
  const dash = value.indexOf('-');
  try {
    if (slash > 0) {
      const network = value.slice(0, slash);
      const family = isIP(network) === 6 ? 'ipv6' : 'ipv4';
      list.addSubnet(network, Number(value.slice(slash + 1)), family);
    } else if (dash > 0) {
      const first = value.slice(0, dash);
      list.addRange(first, value.slice(dash + 1), isIP(first) === 6 ? 'ipv6' : 'ipv4');
    } else if (isIP(value) !== 0) {
      list.addAddress(value, isIP(value) === 6 ? 'ipv6' : 'ipv4');
    } else {
      return () => false;
    }
  } catch {
    return () => false; // not an address Node reads: it holds nothing
  }
  return (ip, family) => list.check(ip, family);
}

export function addressMatcher(spec: string, variables: Record<string, string>): AddressMatcher {
  const unresolved = new Set<string>();

  const compile = (node: AddressSpec, depth: number): Test => {
    switch (node.kind) {
      case 'any':
        return () => true;
      case 'address':
        return leaf(node.value);
      case 'not': {
        const inner = compile(node.spec, depth);
        return (ip, family) => !inner(ip, family);
      }
      case 'variable': {
        const text = variables[node.name];
        const parsed = text === undefined ? undefined : parseAddressSpec(text);
        if (depth >= MAX_VARIABLE_DEPTH || parsed === undefined || !parsed.ok) {
          unresolved.add(`$${node.name}`);
          return () => false;
        }
        return compile(parsed.spec, depth + 1);
      }
      case 'list': {
        const positive = node.items
          .filter((item) => item.kind !== 'not')
          .map((i) => compile(i, depth));
        const negative = node.items
          .filter((item): item is Extract<AddressSpec, { kind: 'not' }> => item.kind === 'not')
          .map((item) => compile(item.spec, depth));
        return (ip, family) =>
          (positive.length === 0 || positive.some((test) => test(ip, family))) &&
          !negative.some((test) => test(ip, family));
      }
    }
  };

  const parsed = parseAddressSpec(spec);
  const test: Test = parsed.ok ? compile(parsed.spec, 0) : () => false;
  // A sensor's alerts repeat their addresses, and a test reads the address each time (about
  // 2 µs): each address is tested once.
  const known = new Map<string, boolean>();
  return {
    matches(ip) {
      if (ip === null) return false;
      let hit = known.get(ip);
      if (hit === undefined) {
        const version = isIP(ip);
        hit = version !== 0 && test(ip, version === 6 ? 'ipv6' : 'ipv4');
        known.set(ip, hit);
      }
      return hit;
    },
    unresolved: [...unresolved],
  };
}
