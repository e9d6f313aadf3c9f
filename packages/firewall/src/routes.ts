// L3 routes → a /bin/sh script of iproute2 commands. `ip route replace` adds or updates, so running
// the script again changes nothing; routes carry a protocol number of their own, so the script
// also deletes those an earlier run added that are no longer configured, and no other route.

import type { DeviceNetwork, Route } from '@palisade/contract';
import type { Family } from './ip.js';
import { formatIP, parseCidr, parseIP } from './ip.js';
import type { Problem } from './problems.js';
import { quote } from './text.js';

/** Routes the script installs carry this protocol number, so a later run can find its own. */
export const ROUTE_PROTOCOL = 250;

type RouteResult =
  { ok: true; command: string; family: Family; key: string } | { ok: false; problems: Problem[] };

function routeCommand(route: Route, k: number): RouteResult {
  const field = `routes.${k}`;
  const problems: Problem[] = [];
  let family: Family | null = null;
  let destination = 'default';
  /** As `ip route show` prints it: a host route without its /32 or /128. */
  let shown = 'default';
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
      const network = formatIP(cidr.family, cidr.interval.lo);
      destination = `${network}/${cidr.prefix}`;
      shown = cidr.prefix === (cidr.family === 4 ? 32 : 128) ? network : destination;
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
  const resolved: Family = family ?? 4;
  const words = [`ip -${resolved} route replace ${destination}`];
  if (gateway !== null) words.push(`via ${gateway}`);
  if (route.interface !== '') words.push(`dev ${shellWord(route.interface)}`);
  if (route.metric !== null) words.push(`metric ${route.metric}`);
  words.push(`proto ${ROUTE_PROTOCOL}`);
  // The kernel's default metric: 0 for IPv4, 1024 for IPv6.
  const metric = route.metric ?? (resolved === 4 ? 0 : 1024);
  return { ok: true, command: words.join(' '), family: resolved, key: `${shown}@${metric}` };
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

export interface RoutesOptions {
  /**
   * Palisade has installed routes on this device before. With no route configured (or L3 mode
   * off) the script is then the cleanup alone, deleting every `proto 250` route, instead of null.
   */
  managed?: boolean;
}

/**
 * A /bin/sh script of `ip route replace` commands for the device's routes. A route with a
 * problem is left out, with a comment saying why. Outside L3 mode or without routes: null, or,
 * when `managed`, the script that deletes the routes an earlier run installed. Only when managed,
 * not always: a sensor that never had Palisade routes gets no iproute2 script at all, and a
 * device's rendered text (hence its config version) does not change until routes are removed.
 */
export function renderRoutes(network: DeviceNetwork, options: RoutesOptions = {}): string | null {
  const routes = network.l3_mode ? network.routes : [];
  if (routes.length === 0 && options.managed !== true) return null;
  // With no route, the cleanup below deletes every proto-tagged route. It lists and deletes
  // rather than `ip route flush proto …`, which fails ("FIB table does not exist") on a table
  // with no route at all; a failing `ip route del` still fails the script.
  const what =
    routes.length === 0
      ? [
          '# Palisade routes, rendered by @palisade/firewall. No route is managed any more: the',
          `# routes an earlier run added (proto ${ROUTE_PROTOCOL}) are deleted, and no other route.`,
        ]
      : [
          '# Palisade routes, rendered by @palisade/firewall. Idempotent: `ip route replace`, then the',
          `# routes an earlier run added (proto ${ROUTE_PROTOCOL}) and no longer configured are deleted.`,
        ];
  const lines = ['#!/bin/sh', ...what, 'set -e'];
  const keep: Record<Family, string[]> = { 4: [], 6: [] };
  routes.forEach((route, k) => {
    const result = routeCommand(route, k);
    if (result.ok) {
      lines.push(result.command);
      keep[result.family].push(result.key);
    } else {
      for (const p of result.problems) lines.push(`# skipped ${p.field}: ${oneLine(p.message)}`);
    }
  });
  for (const family of [4, 6] as const) lines.push(...cleanup(family, keep[family]));
  return `${lines.join('\n')}\n`;
}

/** Deletes this family's proto-tagged routes whose `destination@metric` is not kept. */
function cleanup(family: Family, keep: readonly string[]): string[] {
  return [
    `keep=' ${keep.join(' ')} '`,
    `ip -${family} route show proto ${ROUTE_PROTOCOL} | while read -r dst rest; do`,
    '  if [ "$dst" = nexthop ]; then continue; fi',
    `  metric=${family === 4 ? 0 : 1024}`,
    '  set -- $rest',
    '  while [ $# -gt 1 ]; do',
    '    if [ "$1" = metric ]; then metric=$2; fi',
    '    shift',
    '  done',
    '  case "$keep" in',
    '    *" $dst@$metric "*) ;;',
    `    *) ip -${family} route del "$dst" proto ${ROUTE_PROTOCOL} metric "$metric" ;;`,
    '  esac',
    'done',
  ];
}

function oneLine(text: string): string {
  return quote(text, 200).slice(1, -1);
}
