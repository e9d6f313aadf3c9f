// Server and agent as processes, the agent's reload commands applying nftables.nft and routes.sh
// for real inside a scratch network namespace: a ruleset and a route assigned in the console land
// in the namespace, and once both are removed in the console the agent removes Palisade's table
// and routes from it, leaving the device's other table and routes as they were.

import type { Device } from '@palisade/contract';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleClient, ServerProcess } from './testing/processes.js';
import { deviceAgent, waitFor, type SourceProcess, startConsole } from './testing/processes.js';

const NS = `palisade-agent-${process.pid}`;
const PASSWORD = 'device-password-0003';
const ROUTE = { address: '10.214.9.0/24', gateway: '10.214.2.2', interface: 'lan', metric: 10 };

/** Runs a command; its output, or throws with its error output. */
function sh(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 20_000 });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

/** Why this machine cannot run the test (no root, no ip or nft), or null. */
function unavailable(): string | null {
  const probe = `${NS}-probe`;
  const added = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8', timeout: 10_000 });
  if (added.error) return `ip cannot run: ${added.error.message}`;
  if (added.status !== 0) return `ip netns add fails: ${added.stderr.trim()}`;
  spawnSync('ip', ['netns', 'del', probe], { timeout: 10_000 });
  const nft = spawnSync('nft', ['--version'], { encoding: 'utf8' });
  return nft.status === 0 ? null : 'nft cannot run';
}

const skip = unavailable();
const inNs = (...args: string[]) => sh('ip', ['netns', 'exec', NS, ...args]);

describe.skipIf(skip !== null)(
  `the agent applies a firewall and routes, then their removal${skip === null ? '' : ` (skipped: ${skip})`}`,
  () => {
    let dir: string;
    let server: ServerProcess;
    let admin: ConsoleClient;
    let agent: SourceProcess | undefined;
    let device: Device;
    let rulesetId: number;

    const view = (id: number) => admin.ok<Device>('GET', `/devices/${id}`);
    /** The device applied its current config version without error. */
    const applied = (what: string) =>
      waitFor(what, async () => {
        const d = await view(device.id);
        return d.config_version_local === d.config_version_remote && d.last_error === null
          ? d
          : undefined;
      });

    beforeAll(async () => {
      spawnSync('ip', ['netns', 'del', NS], { timeout: 10_000 });
      sh('ip', ['netns', 'add', NS]);
      sh('ip', ['-n', NS, 'link', 'add', 'lan', 'type', 'veth', 'peer', 'name', 'lan-peer']);
      sh('ip', ['-n', NS, 'addr', 'add', '10.214.2.1/24', 'dev', 'lan']);
      sh('ip', ['-n', NS, 'link', 'set', 'lan', 'up']);
      sh('ip', ['-n', NS, 'link', 'set', 'lan-peer', 'up']);
      // Not Palisade's: a table and a route of the device's own, which must stay.
      sh('ip', ['-n', NS, 'route', 'add', '10.214.7.0/24', 'via', '10.214.2.3']);
      inNs('nft', 'add table inet other');

      dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-agent-fw-'));
      ({ server, admin } = await startConsole(dir));
      rulesetId = (
        await admin.ok<{ id: number }>('POST', '/fwruleset/', {
          name: 'Edge',
          policies: { input: 'accept', forward: 'accept', output: 'accept' },
          rules: [{ chain: 'input', action: 'drop', protocol: 'tcp', destination_ports: '23' }],
        })
      ).id;
      device = await admin.ok<Device>('POST', '/devices/', {
        name: 'router-1',
        password: PASSWORD,
        firewall_id: rulesetId,
      });
      await admin.ok('PUT', `/devices/${device.id}/network`, {
        l3_mode: true,
        routes: [ROUTE],
        source_nat: [],
        port_forwards: [],
      });
      await writeFile(path.join(dir, 'password'), `${PASSWORD}\n`);
      // As on a router: the files of the bundle go to nft and sh; an absent file is nothing to do.
      const reload = (file: string, command: string) =>
        `[ ! -e ${file} ] || ip netns exec ${NS} ${command} ${file}`;
      agent = deviceAgent(server.url, device.id, dir, [
        '--reload-cmd',
        reload('nftables.nft', 'nft -f'),
        '--reload-cmd',
        reload('routes.sh', 'sh'),
        '--heartbeat',
        '2',
      ]);
      agent.start();
    }, 180_000);

    afterAll(async () => {
      await agent?.stop();
      await server?.stop();
      spawnSync('ip', ['netns', 'del', NS], { timeout: 10_000 });
      if (dir) await rm(dir, { recursive: true, force: true });
    }, 120_000);

    it('applies the ruleset and the route in the namespace', async () => {
      await applied('the first bundle applied');
      expect(inNs('nft', 'list', 'table', 'inet', 'palisade')).toContain('tcp dport 23');
      expect(sh('ip', ['-n', NS, 'route', 'show', 'proto', '250'])).toContain(
        '10.214.9.0/24 via 10.214.2.2 dev lan metric 10',
      );
    }, 120_000);

    it('removes the table and the route once both are removed in the console; the rest stays', async () => {
      const before = await view(device.id);
      await admin.ok('PUT', `/devices/${device.id}`, { firewall_id: null });
      await admin.ok('PUT', `/devices/${device.id}/network`, {
        l3_mode: true,
        routes: [],
        source_nat: [],
        port_forwards: [],
      });
      const after = await view(device.id);
      expect(after.config_version_remote).toBe(before.config_version_remote + 2);
      await waitFor('the removal applied', async () => {
        const d = await view(device.id);
        return d.config_version_local === after.config_version_remote;
      });
      expect((await view(device.id)).last_error).toBeNull();
      expect(inNs('nft', 'list', 'tables').trim()).toBe('table inet other');
      expect(sh('ip', ['-n', NS, 'route', 'show', 'proto', '250'])).toBe('');
      expect(sh('ip', ['-n', NS, 'route', 'show'])).toContain('10.214.7.0/24 via 10.214.2.3');
    }, 120_000);
  },
);
