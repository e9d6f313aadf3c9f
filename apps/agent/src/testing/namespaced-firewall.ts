// A console on one end of a veth pair and an agent in a network namespace of its own behind
// the other, applying its nftables.nft with real `nft -f` there: the set-up of the tests of
// what the agent does to the firewall it runs (commit confirmed, drift).

import type { Device } from '@palisade/contract';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  IP,
  NFT,
  addNamespace,
  deleteNamespaces,
  inNs,
  joinNamespaces,
} from '../../../../testing/netns.mjs';
import type { ConsoleClient, ServerProcess, TestProcess } from './processes.js';
import { deviceAgent, startConsole, waitFor } from './processes.js';

export const FIREWALL_ACCEPT_ALL = { input: 'accept', forward: 'accept', output: 'accept' };
export const LOOPBACK_RULE = { chain: 'input', action: 'accept', in_interface: 'lo' };
export const ESTABLISHED_RULE = {
  chain: 'input',
  action: 'accept',
  states: ['established', 'related'],
};
const PASSWORD = 'device-password-0005';

export interface NamespacedFirewall {
  dir: string;
  server: ServerProcess;
  admin: ConsoleClient;
  agent: TestProcess;
  device: Device;
  rulesetId: number;
  /** The console's view of the device. */
  view: () => Promise<Device>;
  /** Palisade's nftables table as the device's namespace holds it. */
  table: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts the console at `serverAddress` and the agent of device `sensor-1` in namespace `ns`
 * at `deviceAddress`, given the ruleset `Edge` (accept policies, loopback, established and
 * `rules`), with `agentArgs` after the reload command; resolves once the device runs its
 * first configuration without error. `hostLink` names this side's veth end (unique, 15
 * characters at most).
 */
export async function startNamespacedFirewall(options: {
  ns: string;
  hostLink: string;
  serverAddress: string;
  deviceAddress: string;
  rules: object[];
  agentArgs: string[];
}): Promise<NamespacedFirewall> {
  const { ns, serverAddress } = options;
  addNamespace(ns);
  joinNamespaces({
    a: null,
    b: ns,
    addressA: serverAddress,
    addressB: options.deviceAddress,
    nameA: options.hostLink,
  });
  const dir = await mkdtemp(path.join(os.tmpdir(), `palisade-agent-${ns}-`));
  const { server, admin } = await startConsole(dir, { HOST: serverAddress });
  const ruleset = await admin.ok<{ id: number }>('POST', '/fwruleset/', {
    name: 'Edge',
    policies: FIREWALL_ACCEPT_ALL,
    rules: [LOOPBACK_RULE, ESTABLISHED_RULE, ...options.rules],
  });
  const device = await admin.ok<Device>('POST', '/devices/', {
    name: 'sensor-1',
    password: PASSWORD,
    firewall_id: ruleset.id,
  });
  await writeFile(path.join(dir, 'password'), `${PASSWORD}\n`);
  const agent = deviceAgent(
    server.url,
    device.id,
    dir,
    ['--reload-cmd', `[ ! -e nftables.nft ] || ${NFT} -f nftables.nft`, ...options.agentArgs],
    [IP, 'netns', 'exec', ns],
  );
  const view = () => admin.ok<Device>('GET', `/devices/${device.id}`);
  const stop = async () => {
    await agent.stop();
    await server.stop();
    deleteNamespaces([ns]);
    await rm(dir, { recursive: true, force: true });
  };
  agent.start();
  try {
    await waitFor('the first ruleset applied', async () => {
      const d = await view();
      return d.config_version_local === d.config_version_remote && d.last_error === null
        ? d
        : undefined;
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    dir,
    server,
    admin,
    agent,
    device,
    rulesetId: ruleset.id,
    view,
    table: () => inNs(ns, NFT, ['list', 'table', 'inet', 'palisade']),
    stop,
  };
}
