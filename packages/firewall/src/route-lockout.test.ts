import type { DeviceNetwork, Route } from '@palisade/contract';
import { describe, expect, it } from 'vitest';
import { checkRouteLockout, serverRoute } from './index.js';

const server = { address: '10.20.0.5', port: 8443 };
const route = (address: string, gateway: string, more: Partial<Route> = {}): Route => ({
  address,
  gateway,
  metric: null,
  interface: '',
  ...more,
});
const l3 = (...routes: Route[]): DeviceNetwork => ({
  l3_mode: true,
  routes,
  source_nat: [],
  port_forwards: [],
});

describe('serverRoute: the route of Palisade the kernel would pick for the server', () => {
  it('takes the longest prefix covering the address, then the lowest metric', () => {
    const network = l3(
      route('default', '192.0.2.1'),
      route('10.0.0.0/8', '192.0.2.2'),
      route('10.20.0.0/16', '192.0.2.3', { metric: 20 }),
      route('10.20.0.0/16', '192.0.2.4', { metric: 10 }),
      route('10.30.0.0/16', '192.0.2.5'),
      route('2001:db8::/32', 'fe80::1', { interface: 'eth0' }),
    );
    expect(serverRoute(network, server)).toEqual({
      index: 3,
      text: '10.20.0.0/16 via 192.0.2.4 metric 10',
    });
    expect(serverRoute(network, { address: '10.99.0.1', port: 1 })?.index).toBe(1);
    expect(serverRoute(network, { address: '198.51.100.7', port: 1 })?.text).toBe(
      'default via 192.0.2.1',
    );
    expect(serverRoute(network, { address: '2001:db8::9', port: 1 })?.index).toBe(5);
  });

  it('none outside L3 mode, for another family, or for a route with a problem', () => {
    expect(serverRoute({ ...l3(route('default', '192.0.2.1')), l3_mode: false }, server)).toBe(
      null,
    );
    expect(serverRoute(l3(route('default', 'fe80::1')), server)).toBe(null);
    // The local table answers for loopback before any route of the main table.
    expect(serverRoute(l3(route('default', '192.0.2.1')), { address: '127.0.0.1', port: 1 })).toBe(
      null,
    );
    expect(serverRoute(l3(route('default', 'fe80::1')), { address: '::1', port: 1 })).toBe(null);
    expect(serverRoute(l3(route('10.0.0.0/33', '192.0.2.1')), server)).toBe(null);
    expect(serverRoute(l3(route('10.20.0.5', '', { interface: 'wg0' })), server)?.text).toBe(
      '10.20.0.5 dev wg0',
    );
  });
});

describe('checkRouteLockout: a change that moves the path to the server', () => {
  const before = l3(route('default', '192.0.2.1'), route('172.16.0.0/12', '192.0.2.9'));

  it('passes what leaves that path alone', () => {
    const after = l3(route('default', '192.0.2.1'), route('172.16.0.0/12', '192.0.2.10'));
    expect(checkRouteLockout(before, after, server)).toBe(null);
    expect(checkRouteLockout(l3(), l3(route('172.16.0.0/12', '192.0.2.9')), server)).toBe(null);
  });

  it('names the route that would carry it instead, and the one it replaces', () => {
    const gateway = l3(route('default', '192.0.2.77'), route('172.16.0.0/12', '192.0.2.9'));
    expect(checkRouteLockout(before, gateway, server)).toEqual({
      field: 'routes.0',
      message:
        'route 1 (default via 192.0.2.77) would carry it instead of the route default via 192.0.2.1: check its gateway and interface',
    });
    const narrower = l3(...before.routes, route('10.20.0.0/24', '', { interface: 'wg0' }));
    expect(checkRouteLockout(before, narrower, server)?.field).toBe('routes.2');
    expect(checkRouteLockout(l3(), before, server)?.message).toMatch(
      /instead of the device's own routes/,
    );
  });

  it('a route taken away, or L3 mode turned off, gives the path back to the device', () => {
    const off = { ...before, l3_mode: false };
    expect(checkRouteLockout(before, off, server)).toEqual({
      field: 'routes',
      message:
        "without the route default via 192.0.2.1 the device's own routes would carry it again: keep that route",
    });
  });
});
