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

/**
 * A dotted-quad IPv4 address (as Suricata writes one: no leading zeros) as a number, else null.
 * A replay tests tens of thousands of alerts' addresses, and Node's BlockList reads each one
 * again at about 2 µs: IPv4 addresses in this form are compared as numbers, the rest (IPv6,
 * other spellings) are left to BlockList.
 */
function ipv4Number(ip: string): number | null {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < ip.length; i += 1) {
    const code = ip.charCodeAt(i);
    if (code === 46) {
      if (digits === 0 || dots === 3) return null;
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
      dots += 1;
    } else if (code >= 48 && code <= 57) {
      if (digits === 3 || (digits > 0 && octet === 0)) return null;
      octet = octet * 10 + (code - 48);
      digits += 1;
      if (octet > 255) return null;
    } else return null;
  }
  return dots === 3 && digits > 0 ? value * 256 + octet : null;
}

/** The IPv4 block `[first, last]` of a subnet or range whose ends are dotted quads. */
function ipv4Block(value: string, slash: number, dash: number): [number, number] | null {
  if (slash > 0) {
    const network = ipv4Number(value.slice(0, slash));
    const prefix = Number(value.slice(slash + 1));
    if (network === null || !Number.isInteger(prefix) || prefix < 0 || prefix > 32) return null;
    const size = 2 ** (32 - prefix);
    const first = Math.floor(network / size) * size;
    return [first, first + size - 1];
  }
  if (dash > 0) {
    const first = ipv4Number(value.slice(0, dash));
    const last = ipv4Number(value.slice(dash + 1));
    return first === null || last === null ? null : [first, last];
  }
  const address = ipv4Number(value);
  return address === null ? null : [address, address];
}

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
  const block = ipv4Block(value, slash, dash);
  return (ip, family) => {
    if (block !== null && family === 'ipv4') {
      const address = ipv4Number(ip);
      if (address !== null) return address >= block[0] && address <= block[1];
    }
    return list.check(ip, family);
  };
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
        const version = ipv4Number(ip) === null ? isIP(ip) : 4;
        hit = version !== 0 && test(ip, version === 6 ? 'ipv6' : 'ipv4');
        known.set(ip, hit);
      }
      return hit;
    },
    unresolved: [...unresolved],
  };
}
