// Firewall drift with real nft: the agent runs in a network namespace of its own, applying
// nftables.nft with `nft -f` there. A rule added to Palisade's table behind the agent's back is
// found at the next heartbeat and undone by loading the script again; the console hears of it.
// Another tool's table is none of Palisade's business and never counts as drift.

import type { Device, DeviceSummary, FirewallHits } from '@palisade/contract';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NFT, inNs, netnsUnavailable } from '../../../testing/netns.mjs';
import type { ConsoleClient } from './testing/processes.js';
import { waitFor } from './testing/processes.js';
import { startNamespacedFirewall, type NamespacedFirewall } from './testing/namespaced-firewall.js';

const skip = netnsUnavailable();
const NS = `palisade-fd-${process.pid}`;
const DEVICE_ADDRESS = '10.214.6.2';

const telnet = { chain: 'input', action: 'drop', protocol: 'tcp', destination_ports: '23' };

describe.skipIf(skip !== null)(
  `a firewall changed behind the agent's back is re-applied${skip === null ? '' : ` (skipped: ${skip})`}`,
  () => {
    let sensor: NamespacedFirewall | undefined;
    let admin: ConsoleClient;
    let device: Device;
    let rulesetId: number;
    let view: () => Promise<Device>;
    let table: () => string;

    beforeAll(async () => {
      sensor = await startNamespacedFirewall({
        ns: NS,
        hostLink: `pfd${process.pid % 1_000_000}`,
        serverAddress: '10.214.6.1',
        deviceAddress: DEVICE_ADDRESS,
        rules: [telnet],
        agentArgs: ['--nft', NFT, '--heartbeat', '1', '--firewall-hits', '1'],
      });
      ({ admin, device, rulesetId, view, table } = sensor);
      await waitFor('the ruleset reported as loaded', async () => {
        const d = await view();
        return d.firewall !== null ? d : undefined;
      });
    }, 180_000);

    afterAll(() => sensor?.stop(), 120_000);

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
