// A device's NAT in L3 mode: source NAT (masquerade, or SNAT to an address) on the way out of an
// interface, and port forwards (DNAT of traffic addressed to the device itself, `fib daddr type
// local`) with the forward-chain rules that let those connections through both ways.

import type { DeviceNetwork } from '@palisade/contract';
import type { Family } from './ip.js';
import { formatIP, parseAddressToken, parseIP } from './ip.js';
import type { Problem } from './problems.js';
import { fieldProblems } from './problems.js';
import type { Scope } from './resolve.js';
import { readAddressField } from './resolve.js';
import { familyMatch } from './rule.js';
import type { SetRegistry } from './sets.js';
import { addressType } from './sets.js';
import { quote } from './text.js';

export interface NatLines {
  prerouting: string[];
  postrouting: string[];
  /** Accept rules for forwarded connections, ahead of the ruleset's forward rules. */
  forward: string[];
  problems: Problem[];
}

const ip = (family: Family) => (family === 4 ? 'ip' : 'ip6');

export function renderNat(network: DeviceNetwork, scope: Scope, sets: SetRegistry): NatLines {
  const out: NatLines = { prerouting: [], postrouting: [], forward: [], problems: [] };
  network.source_nat.forEach((entry, k) => {
    const field = `source_nat.${k}`;
    const source = readAddressField(entry.source, scope);
    if (!source.ok) {
      out.problems.push(...fieldProblems(null, `${field}.source`, source.messages));
      return;
    }
    let target: { family: Family; text: string } | null = null;
    if (entry.to_address !== '') {
      const token = parseAddressToken(entry.to_address);
      if (!token.ok || entry.to_address.includes('/')) {
        out.problems.push({
          rule: null,
          field: `${field}.to_address`,
          message: `"${entry.to_address}" is not an address or an address range`,
        });
        return;
      }
      const { family, interval } = token;
      const text =
        interval.lo === interval.hi
          ? formatIP(family, interval.lo)
          : `${formatIP(family, interval.lo)}-${formatIP(family, interval.hi)}`;
      target = { family, text };
    }
    const sourceFamilies = ([4, 6] as const).filter(
      (family) => familyMatch(source.field, family).kind !== 'none',
    );
    const unconstrained = ([4, 6] as const).every(
      (family) => familyMatch(source.field, family).kind === 'all',
    );
    // Masquerading an unrestricted source is IPv4 only: NAT66 is never what one means by default.
    const families: Family[] =
      target !== null
        ? sourceFamilies.filter((family) => family === target.family)
        : unconstrained
          ? [4]
          : sourceFamilies;
    if (families.length === 0) {
      out.problems.push({
        rule: null,
        field: `${field}.source`,
        message:
          target === null
            ? 'matches no address'
            : `has no IPv${target.family} address to translate to ${target.text}`,
      });
      return;
    }
    for (const family of families) {
      const match = familyMatch(source.field, family);
      let selectors = [`meta nfproto ipv${family}`];
      if (match.kind === 'match') {
        const operands = sets.operands(
          {
            type: addressType(family),
            intervals: match.intervals,
            negate: match.negate,
            variable: source.field.variable,
            name: `_snat${k}_saddr_v${family}`,
          },
          true,
        );
        selectors = operands.map(
          (operand) => `${ip(family)} saddr ${match.negate ? '!= ' : ''}${operand}`,
        );
      }
      const action = target === null ? 'masquerade' : `snat ${ip(family)} to ${target.text}`;
      for (const selector of selectors) {
        out.postrouting.push(`oifname ${quote(entry.out_interface)} ${selector} ${action}`);
      }
    }
  });

  const seen = new Map<string, { iface: string; k: number }[]>();
  network.port_forwards.forEach((forward, k) => {
    const field = `port_forwards.${k}`;
    const to = parseIP(forward.to_address);
    if (to === null) {
      out.problems.push({
        rule: null,
        field: `${field}.to_address`,
        message: `"${forward.to_address}" is not an IP address`,
      });
      return;
    }
    const key = `${forward.protocol}/${forward.port}/v${to.family}`;
    const earlier = (seen.get(key) ?? []).find(
      (other) =>
        other.iface === '' || forward.in_interface === '' || other.iface === forward.in_interface,
    );
    if (earlier !== undefined) {
      out.problems.push({
        rule: null,
        field: `${field}.port`,
        message: `${forward.protocol} port ${forward.port} is already forwarded by port_forwards.${earlier.k}`,
      });
      return;
    }
    seen.set(key, [...(seen.get(key) ?? []), { iface: forward.in_interface, k }]);

    const toPort = forward.to_port ?? forward.port;
    const address = formatIP(to.family, to.value);
    const destination = to.family === 4 ? `${address}:${toPort}` : `[${address}]:${toPort}`;
    const comment = forward.comment === '' ? '' : ` comment ${quote(forward.comment)}`;
    const iif = forward.in_interface === '' ? '' : `iifname ${quote(forward.in_interface)} `;
    const oif = forward.in_interface === '' ? '' : `oifname ${quote(forward.in_interface)} `;
    const p = forward.protocol;
    out.prerouting.push(
      `${iif}fib daddr type local meta nfproto ipv${to.family} ${p} dport ${forward.port} dnat ${ip(to.family)} to ${destination}${comment}`,
    );
    out.forward.push(
      `${iif}ct direction original ct status dnat ${ip(to.family)} daddr ${address} ${p} dport ${toPort} accept${comment}`,
      `${oif}ct direction reply ct status dnat ${ip(to.family)} saddr ${address} ${p} sport ${toPort} accept${comment}`,
    );
  });
  return out;
}
