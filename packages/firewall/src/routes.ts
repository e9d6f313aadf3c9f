// L3 routes → iproute2 commands. `ip route replace` adds or updates, so running the script again
// changes nothing.

import type { DeviceNetwork, Route } from '@palisade/contract';
import type { Family } from './ip.js';
import { formatIP, parseCidr, parseIP } from './ip.js';
import type { Problem } from './problems.js';
import { quote } from './text.js';

type RouteResult = { ok: true; command: string } | { ok: false; problems: Problem[] };

function routeCommand(route: Route, k: number): RouteResult {
  const field = `routes.${k}`;
  const problems: Problem[] = [];
  let family: Family | null = null;
  let destination = 'default';
  if (route.address !== 'default') {
    const cidr = parseCidr(route.address);
    if (cidr === null) {
      problems.push({
        rule: null,
        field: `${field}.address`,
        message: `"${route.address}" is not a CIDR block or 'default'`,
      });
    } else {
      family = cidr.family;
      destination = `${formatIP(cidr.family, cidr.interval.lo)}/${cidr.prefix}`;
    }
  }
  let gateway: string | null = null;
  if (route.gateway !== '') {
    const parsed = parseIP(route.gateway);
    if (parsed === null) {
      problems.push({
        rule: null,
        field: `${field}.gateway`,
        message: `"${route.gateway}" is not an IP address`,
      });
    } else if (family !== null && parsed.family !== family) {
      problems.push({
        rule: null,
        field: `${field}.gateway`,
        message: `an IPv${parsed.family} gateway for an IPv${family} destination`,
      });
    } else {
      family = parsed.family;
      gateway = formatIP(parsed.family, parsed.value);
    }
  }
  if (route.gateway === '' && route.interface === '') {
    problems.push({
      rule: null,
      field: `${field}.interface`,
      message: 'a route needs a gateway or an interface',
    });
  }
  if (problems.length > 0) return { ok: false, problems };
  const words = [`ip -${family ?? 4} route replace ${destination}`];
  if (gateway !== null) words.push(`via ${gateway}`);
  if (route.interface !== '') words.push(`dev ${shellWord(route.interface)}`);
  if (route.metric !== null) words.push(`metric ${route.metric}`);
  return { ok: true, command: words.join(' ') };
}

/** Interface names are [A-Za-z0-9_.:@-] (the contract checks); quoted for the shell anyway. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_.:@-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Problems of a device's routes (the same ones renderFirewall reports). */
export function routeProblems(network: DeviceNetwork): Problem[] {
  return network.routes.flatMap((route, k) => {
    const result = routeCommand(route, k);
    return result.ok ? [] : result.problems;
  });
}

/**
 * A /bin/sh script of `ip route replace` commands for the device's routes; null when the device
 * is not in L3 mode or has none. A route with a problem is left out, with a comment saying why.
 */
export function renderRoutes(network: DeviceNetwork): string | null {
  if (!network.l3_mode || network.routes.length === 0) return null;
  const lines = [
    '#!/bin/sh',
    '# Palisade routes, rendered by @palisade/firewall: idempotent (ip route replace).',
    'set -e',
  ];
  network.routes.forEach((route, k) => {
    const result = routeCommand(route, k);
    if (result.ok) lines.push(result.command);
    else for (const p of result.problems) lines.push(`# skipped ${p.field}: ${oneLine(p.message)}`);
  });
  return `${lines.join('\n')}\n`;
}

function oneLine(text: string): string {
  return quote(text, 200).slice(1, -1);
}
