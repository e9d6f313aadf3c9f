// The lock-out check of routes (issue 18): the agent's connection to the server follows the
// device's routing table, and Palisade's routes (`ip route replace`, proto 250) take part in it.
// Whether a gateway is right the console cannot know; what it can know is that a change moves
// the path to the server: another route of Palisade's now carries it, or none does any more (the
// device's own routes again). Such a change is refused like a firewall change that cuts the
// server off, unless an Administrator overrides it.

import type { DeviceNetwork, Route } from '@palisade/contract';
import type { Family } from './ip.js';
import { formatIP, parseCidr, parseIP } from './ip.js';
import type { ServerEndpoint } from './lockout.js';

/** The route of Palisade's that carries traffic to the server. */
export interface ServerRoute {
  /** Its index in `routes`. */
  index: number;
  /** As `ip route` would show it: `10.0.0.0/8 via 192.0.2.1 dev eth1`. */
  text: string;
}

export interface RouteLockoutProblem {
  /** The route that would carry the server's traffic (`routes.N`), or `routes` when none would. */
  field: string;
  message: string;
}

/** Where a route leads, as `ip route` shows it: `default via 192.0.2.1 dev eth0`. */
function describe(route: Route, destination: string, family: Family): string {
  const gateway = parseIP(route.gateway);
  const words = [destination];
  if (gateway !== null) words.push(`via ${formatIP(gateway.family, gateway.value)}`);
  if (route.interface !== '') words.push(`dev ${route.interface}`);
  if (route.metric !== null) words.push(`metric ${route.metric}`);
  return family === 6 && destination === 'default' ? `${words.join(' ')} (IPv6)` : words.join(' ');
}

/** 127.0.0.0/8 and ::1 are the kernel's local table's, ahead of any route of the main one. */
const isLoopback = ({ family, value }: { family: Family; value: bigint }) =>
  family === 4 ? value >> 24n === 127n : value === 1n;

/**
 * The route of `network` that the kernel would pick for the server's address: the longest
 * prefix covering it, then the lowest metric, as `ip route get` would. Null outside L3 mode, for
 * a server on loopback, or when no route of Palisade's covers it. Routes with problems are left out, as the script does.
 */
export function serverRoute(network: DeviceNetwork, server: ServerEndpoint): ServerRoute | null {
  const address = parseIP(server.address);
  if (address === null || !network.l3_mode || isLoopback(address)) return null;
  let best: { route: ServerRoute; prefix: number; metric: number } | null = null;
  for (const [index, route] of network.routes.entries()) {
    const gateway = route.gateway === '' ? null : parseIP(route.gateway);
    if (route.gateway !== '' && gateway === null) continue;
    let family: Family;
    let prefix = 0;
    let destination = 'default';
    if (route.address === 'default') {
      family = gateway?.family ?? 4;
    } else {
      const cidr = parseCidr(route.address);
      if (cidr === null) continue;
      if (address.value < cidr.interval.lo || address.value > cidr.interval.hi) continue;
      family = cidr.family;
      prefix = cidr.prefix;
      const network = formatIP(cidr.family, cidr.interval.lo);
      destination = prefix === (family === 4 ? 32 : 128) ? network : `${network}/${prefix}`;
    }
    if (family !== address.family || (gateway !== null && gateway.family !== family)) continue;
    if (gateway === null && route.interface === '') continue;
    // The kernel's default metric: 0 for IPv4, 1024 for IPv6.
    const metric = route.metric ?? (family === 4 ? 0 : 1024);
    if (best && (prefix < best.prefix || (prefix === best.prefix && metric >= best.metric)))
      continue;
    best = { route: { index, text: describe(route, destination, family) }, prefix, metric };
  }
  return best?.route ?? null;
}

/**
 * What moving from `before` to `after` does to the path to the server: null when the same route
 * (or, both times, none of Palisade's) carries it; otherwise the problem, naming the route.
 */
export function checkRouteLockout(
  before: DeviceNetwork,
  after: DeviceNetwork,
  server: ServerEndpoint,
): RouteLockoutProblem | null {
  const was = serverRoute(before, server);
  const now = serverRoute(after, server);
  if (was?.text === now?.text) return null;
  if (now === null) {
    return {
      field: 'routes',
      message: `without the route ${was?.text ?? ''} the device's own routes would carry it again: keep that route`,
    };
  }
  const instead = was === null ? "the device's own routes" : `the route ${was.text}`;
  return {
    field: `routes.${now.index}`,
    message: `route ${now.index + 1} (${now.text}) would carry it instead of ${instead}: check its gateway and interface`,
  };
}
