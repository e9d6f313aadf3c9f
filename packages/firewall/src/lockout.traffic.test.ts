// The lock-out check against real nft: two network namespaces (device — server) joined by a
// veth pair, addresses from 10.214.0.0/24 that exist only inside them. For each ruleset the
// device gets the rendered script (`nft -f`, as the agent applies it) and opens a TCP
// connection to the server and one over loopback; checkLockout must say what nft does.

import type { ChildProcessByStdio } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { ChainPolicies, FirewallRule } from '@palisade/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLockout, renderFirewall } from './index.js';
import { defaultPolicies, rule } from './testing/cases.js';
import {
  IP,
  NFT,
  addNamespace,
  deleteNamespaces,
  inNs,
  joinNamespaces,
  netnsUnavailable,
  removeScratch,
  writeScratch,
} from './testing/nft.js';

const unavailable = netnsUnavailable();
const tag = `${process.pid}-${Math.random().toString(36).slice(2, 6)}`;
const DEVICE = `palisade-ld-${tag}`;
const SERVER = `palisade-ls-${tag}`;
const PEER = join(import.meta.dirname, 'testing', 'peer.mjs');
const DROP_WAIT_MS = 1500;
const PASS_WAIT_MS = 10_000;
const SERVER_ADDRESS = '10.214.0.1';
const DEVICE_ADDRESS = '10.214.0.2';
const PORT = 8443;
const LOOPBACK_PORT = 9100;

const lo = rule({ chain: 'input', action: 'accept', in_interface: 'lo' });
const established = rule({ chain: 'input', action: 'accept', states: ['established', 'related'] });
const outLo = rule({ chain: 'output', action: 'accept', out_interface: 'lo' });
const outEstablished = rule({
  chain: 'output',
  action: 'accept',
  states: ['established', 'related'],
});
const management = rule({
  chain: 'output',
  action: 'accept',
  protocol: 'tcp',
  destination: '$MGMT_NET',
  destination_ports: String(PORT),
});
const outputDrop: ChainPolicies = { ...defaultPolicies, output: 'drop' };

const RULESETS: Record<string, { rules: FirewallRule[]; policies: ChainPolicies }> = {
  'empty, input drop': { rules: [], policies: defaultPolicies },
  'loopback and established': { rules: [lo, established], policies: defaultPolicies },
  'established only': { rules: [established], policies: defaultPolicies },
  'loopback only': { rules: [lo], policies: defaultPolicies },
  'all accept': { rules: [], policies: { input: 'accept', forward: 'accept', output: 'accept' } },
  'a drop of the server subnet first': {
    rules: [rule({ chain: 'input', action: 'drop', source: '10.214.0.0/24' }), lo, established],
    policies: defaultPolicies,
  },
  'output drop without the management rule': {
    rules: [lo, established, outLo, outEstablished],
    policies: outputDrop,
  },
  'output drop with the management rule': {
    rules: [lo, established, outLo, outEstablished, management],
    policies: outputDrop,
  },
  'reject of the server port going out': {
    rules: [
      lo,
      established,
      rule({ chain: 'output', action: 'reject', protocol: 'tcp', destination_ports: '8443' }),
    ],
    policies: defaultPolicies,
  },
  'established accepted for udp only': {
    rules: [
      lo,
      rule({ chain: 'input', action: 'accept', protocol: 'udp', states: ['established'] }),
    ],
    policies: defaultPolicies,
  },
};

type Peer = ChildProcessByStdio<Writable, Readable, null>;
const peers: Peer[] = [];

function listen(ns: string, ports: number[]): Promise<void> {
  const child = spawn(
    IP,
    ['netns', 'exec', ns, process.execPath, PEER, 'listen', ...ports.map(String)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
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

/** Whether a TCP connection from the device gets its answer; a drop is given DROP_WAIT_MS. */
function reaches(host: string, port: number, waitMs: number): boolean {
  const result = spawnSync(
    IP,
    [
      'netns',
      'exec',
      DEVICE,
      process.execPath,
      PEER,
      'connect',
      host,
      String(port),
      String(waitMs),
    ],
    { encoding: 'utf8', timeout: waitMs + 10_000 },
  );
  if (result.status !== 0) throw new Error(`connect failed to run: ${result.stderr}`);
  return (JSON.parse(result.stdout) as { ok: boolean }).ok;
}

describe.skipIf(unavailable !== null)(
  `the lock-out check agrees with real nft${unavailable === null ? '' : ` (skipped: ${unavailable})`}`,
  { timeout: 60_000 },
  () => {
    beforeAll(async () => {
      for (const ns of [DEVICE, SERVER]) addNamespace(ns);
      joinNamespaces({ a: DEVICE, b: SERVER, addressA: DEVICE_ADDRESS, addressB: SERVER_ADDRESS });
      await listen(SERVER, [PORT]);
      await listen(DEVICE, [LOOPBACK_PORT]);
    }, 60_000);

    afterAll(() => {
      for (const peer of peers) {
        peer.stdin.end();
        peer.kill('SIGKILL');
      }
      deleteNamespaces([DEVICE, SERVER]);
      removeScratch();
    });

    it.each(Object.entries(RULESETS))('%s', (_name, { rules, policies }) => {
      const variables = { MGMT_NET: '10.214.0.0/24' };
      const { script, problems } = renderFirewall({ rules, policies, variables });
      expect(problems).toEqual([]);
      inNs(DEVICE, NFT, ['-f', writeScratch('lockout.nft', script)]);
      const lost = checkLockout({
        rules,
        policies,
        variables,
        server: { address: SERVER_ADDRESS, port: PORT },
      });
      // Certain verdicts must be what nft does; a "may stop" (the rule depends on a port the
      // check cannot know) is left out: here it is a reject of one port, loopback to another.
      const certainly = (traffic: string) =>
        lost.some((p) => p.traffic === traffic && p.certain)
          ? false
          : lost.some((p) => p.traffic === traffic)
            ? undefined
            : true;
      const predicted = { server: certainly('server'), loopback: certainly('loopback') };
      // A connection predicted to be dropped is waited for only as long as a drop needs to show.
      const wait = (pass: boolean | undefined) => (pass === false ? DROP_WAIT_MS : PASS_WAIT_MS);
      const server = reaches(SERVER_ADDRESS, PORT, wait(predicted.server));
      const loopback = reaches('127.0.0.1', LOOPBACK_PORT, wait(predicted.loopback));
      expect({
        server: predicted.server === undefined ? undefined : server,
        loopback: predicted.loopback === undefined ? undefined : loopback,
      }).toEqual(predicted);
    });
  },
);
