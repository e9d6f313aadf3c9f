// Firewall drift with real nft: the agent runs in a network namespace of its own, applying
// nftables.nft with `nft -f` there. A rule added to Palisade's table behind the agent's back is
// found at the next heartbeat and undone by loading the script again; the console hears of it.
// Another tool's table is none of Palisade's business and never counts as drift.

import type { Device, DeviceSummary, FirewallHits } from '@palisade/contract';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IP,
  NFT,
  addNamespace,
  deleteNamespaces,
  inNs,
  joinNamespaces,
  netnsUnavailable,
} from '../../../testing/netns.mjs';
import type { ConsoleClient, ServerProcess, TestProcess } from './testing/processes.js';
import { deviceAgent, startConsole, waitFor } from './testing/processes.js';

const skip = netnsUnavailable();
const NS = `palisade-fd-${process.pid}`;
const HOST_LINK = `pfd${process.pid % 1_000_000}`;
const SERVER_ADDRESS = '10.214.6.1';
const DEVICE_ADDRESS = '10.214.6.2';
const PASSWORD = 'device-password-0006';

const loopback = { chain: 'input', action: 'accept', in_interface: 'lo' };
const established = { chain: 'input', action: 'accept', states: ['established', 'related'] };
const telnet = { chain: 'input', action: 'drop', protocol: 'tcp', destination_ports: '23' };
const accept = { input: 'accept', forward: 'accept', output: 'accept' };

describe.skipIf(skip !== null)(
  `a firewall changed behind the agent's back is re-applied${skip === null ? '' : ` (skipped: ${skip})`}`,
  () => {
    let dir: string;
    let server: ServerProcess;
    let admin: ConsoleClient;
    let agent: TestProcess | undefined;
    let device: Device;
    let rulesetId: number;

    const view = () => admin.ok<Device>('GET', `/devices/${device.id}`);
    const table = () => inNs(NS, NFT, ['list', 'table', 'inet', 'palisade']);

    beforeAll(async () => {
      addNamespace(NS);
      joinNamespaces({
        a: null,
        b: NS,
        addressA: SERVER_ADDRESS,
        addressB: DEVICE_ADDRESS,
        nameA: HOST_LINK,
      });
      dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-agent-drift-'));
      ({ server, admin } = await startConsole(dir, { HOST: SERVER_ADDRESS }));
      const ruleset = await admin.ok<{ id: number }>('POST', '/fwruleset/', {
        name: 'Edge',
        policies: accept,
        rules: [loopback, established, telnet],
      });
      rulesetId = ruleset.id;
      device = await admin.ok<Device>('POST', '/devices/', {
        name: 'sensor-1',
        password: PASSWORD,
        firewall_id: ruleset.id,
      });
      await writeFile(path.join(dir, 'password'), `${PASSWORD}\n`);
      agent = deviceAgent(
        server.url,
        device.id,
        dir,
        [
          '--reload-cmd',
          `[ ! -e nftables.nft ] || ${NFT} -f nftables.nft`,
          '--nft',
          NFT,
          '--heartbeat',
          '1',
          '--firewall-hits',
          '1',
        ],
        [IP, 'netns', 'exec', NS],
      );
      agent.start();
      await waitFor('the ruleset applied and reported as loaded', async () => {
        const d = await view();
        return d.config_version_local === d.config_version_remote && d.firewall !== null
          ? d
          : undefined;
      });
    }, 180_000);

    afterAll(async () => {
      await agent?.stop();
      await server?.stop();
      deleteNamespaces([NS]);
      if (dir) await rm(dir, { recursive: true, force: true });
    }, 120_000);

    it('reports the table as applied while nobody else touches it', async () => {
      const d = await view();
      expect(d.firewall).toMatchObject({ drift: false, reapplied_at: null });
      expect(d.firewall?.loaded_sha256).toBe(d.firewall?.applied_sha256);
      // Another tool's table is not Palisade's: no drift.
      inNs(NS, NFT, ['add', 'table', 'inet', 'othertool']);
      inNs(NS, NFT, ['add', 'chain', 'inet', 'othertool', 'c']);
      const seen = Date.parse(d.last_seen ?? '');
      const later = await waitFor('heartbeats after the other table', async () => {
        const v = await view();
        return Date.parse(v.last_seen ?? '') > seen + 2000 ? v : undefined;
      });
      expect(later.firewall).toMatchObject({ drift: false, reapplied_at: null });
    }, 60_000);

    it('finds a rule added behind its back, re-applies, and the console says so', async () => {
      inNs(NS, NFT, ['add', 'rule', 'inet', 'palisade', 'input', 'tcp', 'dport', '9999', 'drop']);
      expect(table()).toContain('dport 9999');

      const reapplied = await waitFor('the drift found and re-applied', async () => {
        const d = await view();
        return d.firewall?.reapplied_at ? d : undefined;
      });
      expect(reapplied.firewall?.drift).toBe(false);
      expect(reapplied.firewall?.loaded_sha256).toBe(reapplied.firewall?.applied_sha256);
      expect(table()).not.toContain('dport 9999');
      expect(table()).toMatch(/tcp dport 23 .*drop/);
      // The other tool's table was left alone.
      expect(inNs(NS, NFT, ['list', 'tables'])).toContain('othertool');

      const summary = await admin.ok<DeviceSummary>('GET', '/devices/summary');
      expect(summary.problems.firewall_drift).toMatchObject({
        count: 1,
        devices: [{ id: device.id, name: 'sensor-1' }],
      });
    }, 60_000);

    it("reports its rules' counters: the ruleset shows the telnet rule's hits", async () => {
      // Three connection attempts to the device's port 23, dropped by the telnet rule.
      for (let i = 0; i < 3; i += 1) {
        await new Promise<void>((resolve) => {
          const socket = net.connect({ host: DEVICE_ADDRESS, port: 23, timeout: 300 });
          const done = () => {
            socket.destroy();
            resolve();
          };
          socket.on('timeout', done).on('error', done).on('connect', done);
        });
      }
      const hits = await waitFor('the telnet hits counted', async () => {
        const answer = await admin.ok<FirewallHits>('GET', `/fwruleset/${rulesetId}/hits?days=1`);
        return (answer.rules[2]?.packets ?? 0) >= 3 ? answer : undefined;
      });
      expect(hits.rules[2]).toMatchObject({ reported: true, idle: false });
      expect(hits.rules).toHaveLength(3);
    }, 60_000);

    it('a deleted table is put back too', async () => {
      const before = (await view()).firewall?.reapplied_at ?? '';
      inNs(NS, NFT, ['delete', 'table', 'inet', 'palisade']);
      await waitFor('the table restored', async () => {
        const d = await view();
        return (d.firewall?.reapplied_at ?? '') > before && !d.firewall?.drift ? d : undefined;
      });
      expect(table()).toMatch(/tcp dport 23 .*drop/);
    }, 60_000);
  },
);
