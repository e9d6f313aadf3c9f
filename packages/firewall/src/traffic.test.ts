// Real traffic through a rendered ruleset. Three network namespaces joined by veth pairs —
// client (outside) — router — server (inside) — with addresses from 10.213.0.0/16 that exist
// only inside them; nothing on the host's interfaces changes. The router gets the rendered
// nftables script, NAT and routes the way the agent applies them (`nft -f`, `sh routes.sh`),
// and small node peers prove what passes, what is dropped (time-out) and what is rejected
// (immediate ECONNREFUSED), that a port forward reaches the inner host, and that masqueraded
// traffic arrives from the router's address.

import type { ChildProcessByStdio } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderFirewall, renderFirewallRemoval, renderRoutes } from './index.js';
import { network, rule } from './testing/cases.js';
import {
  IP,
  NFT,
  deleteNamespaces,
  inNs,
  netnsUnavailable,
  reapStaleNamespaces,
  removeScratch,
  run,
  writeScratch,
} from './testing/nft.js';

const unavailable = netnsUnavailable();
const tag = `${process.pid}`;
const CLIENT = `palisade-c-${tag}`;
const ROUTER = `palisade-r-${tag}`;
const SERVER = `palisade-s-${tag}`;
const PEER = join(import.meta.dirname, 'testing', 'peer.mjs');
/** How long a dropped connection is given before it counts as timed out. */
const DROP_WAIT_MS = 1500;
/** How long one expected to pass may take (a loaded machine is slow to start node). */
const PASS_WAIT_MS = 10_000;

const ADDR = {
  client: '10.213.1.2',
  routerWan: '10.213.1.1',
  routerLan: '10.213.2.1',
  server: '10.213.2.2',
  /** Only reachable through the route the router gets from renderRoutes. */
  far: '10.213.9.1',
};
/** IPv6 on the same links (unique local addresses, inside the namespaces only). */
const ADDR6 = {
  client: 'fd00:213:1::2',
  routerWan: 'fd00:213:1::1',
  routerLan: 'fd00:213:2::1',
  server: 'fd00:213:2::2',
};

const input = {
  policies: { input: 'drop', forward: 'drop', output: 'accept' } as const,
  variables: {
    WAN_NET: '[10.213.1.0/24]',
    LAN_NET: '[10.213.2.0/24,fd00:213:2::/64]',
    FAR_NET: '10.213.9.0/24',
  },
  rules: [
    rule({ chain: 'input', action: 'accept', states: ['established', 'related'] }),
    // Without it an input policy of drop also drops IPv6 neighbour discovery: no IPv6 at all.
    rule({ chain: 'input', action: 'accept', protocol: 'icmpv6' }),
    rule({
      chain: 'input',
      action: 'reject',
      protocol: 'any',
      in_interface: 'wan',
      destination: '10.213.2.1',
      comment: 'the LAN address is not for the WAN side',
    }),
    rule({
      chain: 'input',
      action: 'accept',
      protocol: 'tcp',
      source: '$WAN_NET',
      destination_ports: '2201',
    }),
    rule({ chain: 'input', action: 'reject', protocol: 'tcp', destination_ports: '2202' }),
    rule({
      chain: 'input',
      action: 'reject',
      protocol: 'any',
      destination_ports: '',
      source: '10.213.1.99',
    }),
    rule({ chain: 'forward', action: 'accept', states: ['established', 'related'] }),
    rule({
      chain: 'forward',
      action: 'accept',
      protocol: 'tcp',
      in_interface: 'wan',
      out_interface: 'lan',
      destination: '$LAN_NET',
      destination_ports: '7001',
    }),
    rule({
      chain: 'forward',
      action: 'reject',
      protocol: 'tcp_udp',
      in_interface: 'wan',
      destination_ports: '7002',
    }),
    rule({
      chain: 'forward',
      action: 'accept',
      protocol: 'tcp',
      destination: '$FAR_NET',
      destination_ports: '7004',
    }),
    rule({
      chain: 'forward',
      action: 'accept',
      in_interface: 'lan',
      out_interface: 'wan',
      source: '$LAN_NET',
      states: ['new'],
    }),
    rule({
      chain: 'forward',
      action: 'accept',
      protocol: 'tcp',
      destination_ports: '7005',
      enabled: false,
    }),
  ],
  network: network({
    l3_mode: true,
    routes: [
      { address: '10.213.9.0/24', gateway: ADDR.server, interface: 'lan', metric: 10 },
      { address: '10.213.8.0/24', gateway: ADDR.server, metric: 10 },
      { address: '10.213.6.5/32', gateway: ADDR.server },
    ],
    source_nat: [{ out_interface: 'wan', source: '10.213.2.0/24' }],
    port_forwards: [
      {
        in_interface: 'wan',
        protocol: 'tcp',
        port: 8080,
        to_address: ADDR.server,
        to_port: 7080,
        comment: 'web',
      },
    ],
  }),
};

type Peer = ChildProcessByStdio<Writable, Readable, null>;
const peers: Peer[] = [];

function listen(ns: string, ports: number[]): Promise<void> {
  const child = spawn(
    IP,
    ['netns', 'exec', ns, process.execPath, PEER, 'listen', ...ports.map(String)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  peers.push(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`listener in ${ns} not ready`)), 10_000);
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      if (text.includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`listener in ${ns} exited with ${code}`)));
  });
}

type Outcome = { ok: true; reply: string; ms: number } | { ok: false; code: string; ms: number };

function connect(ns: string, host: string, port: number, waitMs = PASS_WAIT_MS): Outcome {
  const result = spawnSync(
    IP,
    ['netns', 'exec', ns, process.execPath, PEER, 'connect', host, String(port), String(waitMs)],
    { encoding: 'utf8', timeout: waitMs + 10_000 },
  );
  if (result.status !== 0) throw new Error(`connect failed to run: ${result.stderr}`);
  return JSON.parse(result.stdout) as Outcome;
}

function setUp(): void {
  reapStaleNamespaces();
  deleteNamespaces([CLIENT, ROUTER, SERVER]);
  for (const ns of [CLIENT, ROUTER, SERVER]) {
    run(IP, ['netns', 'add', ns]);
    run(IP, ['-n', ns, 'link', 'set', 'lo', 'up']);
  }
  // veth pairs created inside the namespaces: no interface ever appears on the host.
  run(IP, [
    '-n',
    ROUTER,
    'link',
    'add',
    'wan',
    'type',
    'veth',
    'peer',
    'name',
    'eth0',
    'netns',
    CLIENT,
  ]);
  run(IP, [
    '-n',
    ROUTER,
    'link',
    'add',
    'lan',
    'type',
    'veth',
    'peer',
    'name',
    'eth0',
    'netns',
    SERVER,
  ]);
  const address = (ns: string, cidr: string, dev: string) => {
    run(IP, ['-n', ns, 'addr', 'add', cidr, 'dev', dev]);
    run(IP, ['-n', ns, 'link', 'set', dev, 'up']);
  };
  address(CLIENT, `${ADDR.client}/24`, 'eth0');
  address(ROUTER, `${ADDR.routerWan}/24`, 'wan');
  address(ROUTER, `${ADDR.routerLan}/24`, 'lan');
  address(SERVER, `${ADDR.server}/24`, 'eth0');
  // nodad: usable at once, no duplicate address detection to wait for.
  const address6 = (ns: string, cidr: string, dev: string) =>
    run(IP, ['-n', ns, '-6', 'addr', 'add', cidr, 'dev', dev, 'nodad']);
  address6(CLIENT, `${ADDR6.client}/64`, 'eth0');
  address6(ROUTER, `${ADDR6.routerWan}/64`, 'wan');
  address6(ROUTER, `${ADDR6.routerLan}/64`, 'lan');
  address6(SERVER, `${ADDR6.server}/64`, 'eth0');
  run(IP, ['-n', CLIENT, '-6', 'route', 'add', 'default', 'via', ADDR6.routerWan]);
  run(IP, ['-n', SERVER, '-6', 'route', 'add', 'default', 'via', ADDR6.routerLan]);
  run(IP, ['-n', SERVER, 'addr', 'add', `${ADDR.far}/32`, 'dev', 'lo']);
  run(IP, ['-n', CLIENT, 'route', 'add', 'default', 'via', ADDR.routerWan]);
  run(IP, ['-n', SERVER, 'route', 'add', 'default', 'via', ADDR.routerLan]);
  // L3 mode: the device forwards (the agent's job; the namespace starts with it off).
  inNs(ROUTER, 'sysctl', ['-q', '-w', 'net.ipv4.ip_forward=1']);
  inNs(ROUTER, 'sysctl', ['-q', '-w', 'net.ipv6.conf.all.forwarding=1']);
}

describe.skipIf(unavailable !== null)(
  `real traffic through a rendered ruleset in network namespaces${unavailable === null ? '' : ` (skipped: ${unavailable})`}`,
  { timeout: 60_000 },
  () => {
    let routesScript = '';

    beforeAll(async () => {
      setUp();
      const { script, problems } = renderFirewall(input);
      expect(problems).toEqual([]);
      routesScript = renderRoutes(input.network) ?? '';
      expect(routesScript).toContain(
        'ip -4 route replace 10.213.9.0/24 via 10.213.2.2 dev lan metric 10',
      );
      // What the agent does with nftables.nft.
      inNs(ROUTER, NFT, ['-f', writeScratch('nftables.nft', script)]);
      await listen(ROUTER, [2201, 2202, 2203]);
      await listen(SERVER, [7001, 7002, 7003, 7004, 7005, 7080]);
      await listen(CLIENT, [9001]);
    }, 60_000);

    afterAll(() => {
      for (const peer of peers) {
        peer.stdin.end();
        peer.kill('SIGKILL');
      }
      deleteNamespaces([CLIENT, ROUTER, SERVER]);
      removeScratch();
    });

    it('allowed: the router itself, from the WAN variable, on tcp 2201', () => {
      expect(connect(CLIENT, ADDR.routerWan, 2201)).toMatchObject({ ok: true, reply: ADDR.client });
    });

    it('rejected: tcp 2202 on the router answers with a reset at once', () => {
      const outcome = connect(CLIENT, ADDR.routerWan, 2202);
      expect(outcome).toMatchObject({ ok: false, code: 'ECONNREFUSED' });
      expect(outcome.ms).toBeLessThan(DROP_WAIT_MS);
    });

    it('rejected, protocol any (reject_packet chain): TCP gets a reset at once', () => {
      const outcome = connect(CLIENT, ADDR.routerLan, 2201);
      expect(outcome).toMatchObject({ ok: false, code: 'ECONNREFUSED' });
      expect(outcome.ms).toBeLessThan(DROP_WAIT_MS);
    });

    it('dropped: tcp 2203 on the router (input policy drop) times out', () => {
      expect(connect(CLIENT, ADDR.routerWan, 2203, DROP_WAIT_MS)).toMatchObject({
        ok: false,
        code: 'TIMEOUT',
      });
    });

    it('forwarded: client to server on tcp 7001, addresses untouched', () => {
      expect(connect(CLIENT, ADDR.server, 7001)).toMatchObject({ ok: true, reply: ADDR.client });
    });

    it('IPv6: the variable with both families opens tcp 7001 for IPv6 too; 7002 rejects, 7003 drops', () => {
      expect(connect(CLIENT, ADDR6.server, 7001)).toMatchObject({ ok: true, reply: ADDR6.client });
      expect(connect(CLIENT, ADDR6.server, 7002)).toMatchObject({
        ok: false,
        code: 'ECONNREFUSED',
      });
      expect(connect(CLIENT, ADDR6.server, 7003, DROP_WAIT_MS)).toMatchObject({
        ok: false,
        code: 'TIMEOUT',
      });
    });

    it('IPv6: the router itself only from the IPv4-only $WAN_NET, so tcp 2201 over IPv6 drops', () => {
      expect(connect(CLIENT, ADDR6.routerWan, 2201, DROP_WAIT_MS)).toMatchObject({
        ok: false,
        code: 'TIMEOUT',
      });
    });

    it('rejected while forwarding: tcp 7002 (tcp_udp reject → TCP reset)', () => {
      expect(connect(CLIENT, ADDR.server, 7002)).toMatchObject({ ok: false, code: 'ECONNREFUSED' });
    });

    it('dropped while forwarding: tcp 7003 (forward policy drop), and the disabled rule for 7005', () => {
      expect(connect(CLIENT, ADDR.server, 7003, DROP_WAIT_MS)).toMatchObject({
        ok: false,
        code: 'TIMEOUT',
      });
      expect(connect(CLIENT, ADDR.server, 7005, DROP_WAIT_MS)).toMatchObject({
        ok: false,
        code: 'TIMEOUT',
      });
    });

    it('port forward: router:8080 reaches the inner host on 7080, which sees the real client', () => {
      expect(connect(CLIENT, ADDR.routerWan, 8080)).toMatchObject({ ok: true, reply: ADDR.client });
    });

    it('the forward chain opens only the forwarded connection, not the inner port itself', () => {
      expect(connect(CLIENT, ADDR.server, 7080, DROP_WAIT_MS)).toMatchObject({
        ok: false,
        code: 'TIMEOUT',
      });
    });

    it('masquerade: the inner host reaches the client, which sees the router address', () => {
      expect(connect(SERVER, ADDR.client, 9001)).toMatchObject({ ok: true, reply: ADDR.routerWan });
    });

    it('routes: the far network is unreachable until routes.sh runs, then reachable; re-running is harmless', () => {
      const before = connect(CLIENT, ADDR.far, 7004, DROP_WAIT_MS);
      expect(before.ok).toBe(false);
      const file = writeScratch('routes.sh', routesScript);
      inNs(ROUTER, 'sh', [file]);
      inNs(ROUTER, 'sh', [file]);
      expect(inNs(ROUTER, IP, ['route', 'show', '10.213.9.0/24'])).toContain(
        'via 10.213.2.2 dev lan proto 250 metric 10',
      );
      expect(connect(CLIENT, ADDR.far, 7004)).toMatchObject({ ok: true, reply: ADDR.client });
    });

    it('routes: a later run deletes the routes no longer configured, and only those', () => {
      run(IP, ['-n', ROUTER, 'route', 'add', '10.213.7.0/24', 'via', ADDR.server]);
      const next = renderRoutes({
        ...input.network,
        routes: [{ address: '10.213.8.0/24', gateway: ADDR.server, interface: '', metric: 20 }],
      });
      inNs(ROUTER, 'sh', [writeScratch('routes.sh', next ?? '')]);
      const routes = inNs(ROUTER, IP, ['-4', 'route', 'show']);
      expect(routes).not.toContain('10.213.9.0/24');
      expect(routes).not.toContain('10.213.6.5');
      expect(routes).not.toContain('metric 10');
      expect(routes).toContain('10.213.8.0/24 via 10.213.2.2 dev lan proto 250 metric 20');
      // Not Palisade's: the admin's own route and the connected networks stay.
      expect(routes).toContain('10.213.7.0/24 via 10.213.2.2 dev lan');
      expect(routes).toContain('10.213.1.0/24 dev wan proto kernel');
      expect(connect(CLIENT, ADDR.far, 7004, DROP_WAIT_MS).ok).toBe(false);
    });

    it('routes: once the last route is removed, the cleanup deletes every Palisade route, both families, and only those', () => {
      const ipv6 = renderRoutes({
        ...input.network,
        routes: [
          { address: '10.213.8.0/24', gateway: ADDR.server, interface: '', metric: 20 },
          { address: 'fd00:213:9::/64', gateway: ADDR6.server, interface: '', metric: null },
        ],
      });
      inNs(ROUTER, 'sh', [writeScratch('routes.sh', ipv6 ?? '')]);
      expect(inNs(ROUTER, IP, ['-6', 'route', 'show', 'proto', '250'])).toContain(
        'fd00:213:9::/64 via fd00:213:2::2 dev lan',
      );
      const cleanup = renderRoutes({ ...input.network, routes: [] }, { managed: true });
      expect(cleanup).not.toBeNull();
      const file = writeScratch('routes.sh', cleanup ?? '');
      inNs(ROUTER, 'sh', [file]);
      inNs(ROUTER, 'sh', [file]); // nothing left to delete: still succeeds
      expect(inNs(ROUTER, IP, ['-4', 'route', 'show', 'proto', '250'])).toBe('');
      expect(inNs(ROUTER, IP, ['-6', 'route', 'show', 'proto', '250'])).toBe('');
      const routes = inNs(ROUTER, IP, ['-4', 'route', 'show']);
      expect(routes).not.toContain('10.213.8.0/24');
      expect(routes).toContain('10.213.7.0/24 via 10.213.2.2 dev lan');
      expect(routes).toContain('10.213.1.0/24 dev wan proto kernel');
      expect(inNs(ROUTER, IP, ['-6', 'route', 'show'])).toContain('fd00:213:2::/64 dev lan');
    });

    it('removal: the removal script deletes the table, so the router filters and translates no more', () => {
      inNs(ROUTER, NFT, ['-f', writeScratch('nftables.nft', renderFirewallRemoval())]);
      expect(inNs(ROUTER, NFT, ['list', 'tables'])).not.toContain('palisade');
      // Dropped by the input policy before; now open.
      expect(connect(CLIENT, ADDR.routerWan, 2203)).toMatchObject({ ok: true, reply: ADDR.client });
      // Forwarded before to the inner host; now nothing listens on the router's 8080.
      expect(connect(CLIENT, ADDR.routerWan, 8080)).toMatchObject({
        ok: false,
        code: 'ECONNREFUSED',
      });
      // Masqueraded before; now the client sees the inner host's own address.
      expect(connect(SERVER, ADDR.client, 9001)).toMatchObject({ ok: true, reply: ADDR.server });
    });

    it('the host saw none of it: no palisade table and no test address outside the namespaces', () => {
      expect(spawnSync(NFT, ['list', 'table', 'inet', 'palisade']).status).not.toBe(0);
      expect(run(IP, ['-o', 'addr', 'show'])).not.toContain('10.213.');
    });
  },
);
