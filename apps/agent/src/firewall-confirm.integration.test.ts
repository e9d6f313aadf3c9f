// "Commit confirmed" with real nft: the server runs in this test's own network namespace on a
// veth address, the agent in a namespace of its own behind the other end, applying nftables.nft
// with `nft -f` there. A ruleset that drops the agent's traffic to the server (sent past the
// lock-out check by an Administrator's override) is undone by the agent within its window, and
// the server then hears why; a harmless change is kept.

import type { Device } from '@palisade/contract';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { netnsUnavailable } from '../../../testing/netns.mjs';
import type { ConsoleClient } from './testing/processes.js';
import { waitFor } from './testing/processes.js';
import {
  ESTABLISHED_RULE,
  FIREWALL_ACCEPT_ALL,
  LOOPBACK_RULE,
  startNamespacedFirewall,
  type NamespacedFirewall,
} from './testing/namespaced-firewall.js';

const skip = netnsUnavailable();
const SERVER_ADDRESS = '10.214.5.1';
const WINDOW_S = 4;

const telnet = { chain: 'input', action: 'drop', protocol: 'tcp', destination_ports: '23' };
const smtp = { chain: 'input', action: 'drop', protocol: 'tcp', destination_ports: '25' };
const cutOff = { chain: 'output', action: 'drop', destination: SERVER_ADDRESS };

describe.skipIf(skip !== null)(
  `a firewall change the server does not confirm is undone${skip === null ? '' : ` (skipped: ${skip})`}`,
  () => {
    let sensor: NamespacedFirewall | undefined;
    let dir: string;
    let admin: ConsoleClient;
    let device: Device;
    let rulesetId: number;
    let view: () => Promise<Device>;
    let table: () => string;

    const saveRules = (rules: object[], override = false) =>
      admin.call('PUT', `/fwruleset/${rulesetId}`, {
        name: 'Edge',
        policies: FIREWALL_ACCEPT_ALL,
        rules: [LOOPBACK_RULE, ESTABLISHED_RULE, ...rules],
        ...(override ? { override_lockout: true } : {}),
      });
    /** The device runs its current config version without error. */
    const current = (what: string) =>
      waitFor(what, async () => {
        const d = await view();
        return d.config_version_local === d.config_version_remote && d.last_error === null
          ? d
          : undefined;
      });
    const agentLog = () => readFile(path.join(dir, 'agent.log'), 'utf8');

    beforeAll(async () => {
      sensor = await startNamespacedFirewall({
        ns: `palisade-fc-${process.pid}`,
        hostLink: `pfc${process.pid % 1_000_000}`,
        serverAddress: SERVER_ADDRESS,
        deviceAddress: '10.214.5.2',
        rules: [telnet],
        agentArgs: ['--firewall-confirm', String(WINDOW_S), '--heartbeat', '1'],
      });
      ({ dir, admin, device, rulesetId, view, table } = sensor);
    }, 180_000);

    afterAll(() => sensor?.stop(), 120_000);

    it('keeps a harmless change: contact with the server confirms it', async () => {
      expect((await saveRules([telnet, smtp])).status).toBe(200);
      const applied = await current('the harmless change applied');
      await waitFor('the change confirmed', async () =>
        (await agentLog()).includes('firewall change confirmed'),
      );
      // Past the window the change still runs, and the device reports no error.
      const past = Date.now() + (WINDOW_S + 1) * 1000;
      const later = await waitFor('heartbeats past the window', async () => {
        const d = await view();
        return d.last_seen !== null && Date.parse(d.last_seen) > past ? d : undefined;
      });
      expect(later.config_version_local).toBe(applied.config_version_remote);
      expect(later.last_error).toBeNull();
      expect(table()).toMatch(/tcp dport 25 .*drop/);
    }, 120_000);

    it('undoes a change that cuts the agent off, reports it, and does not apply it again', async () => {
      const before = await view();
      const refused = await saveRules([cutOff, telnet, smtp]);
      expect(refused.status).toBe(422);
      expect(JSON.stringify(refused.body)).toContain('lockout');
      expect((await saveRules([cutOff, telnet, smtp], true)).status).toBe(200);
      const version = before.config_version_remote + 1;

      const reported = await waitFor(
        'the rollback reported to the server',
        async () => {
          const d = await view();
          return d.last_error?.includes('rolled back') ? d : undefined;
        },
        90_000,
      );
      expect(reported.last_error).toBe(
        `firewall change v${version} rolled back: no contact with the server for ${WINDOW_S} s`,
      );
      expect(reported.config_version_remote).toBe(version);
      // The audit log has it as the device's own action.
      const audit = await waitFor('the rollback in the audit log', async () => {
        const page = await admin.ok<{ data: { actor_kind: string; object_id: string }[] }>(
          'GET',
          '/audit/?action=rollback&object_type=device',
        );
        return page.data.length > 0 ? page.data : undefined;
      });
      expect(audit).toMatchObject([{ actor_kind: 'device', object_id: String(device.id) }]);
      expect(reported.config_version_local).toBe(before.config_version_local);
      const restored = table();
      expect(restored).toMatch(/tcp dport 25 .*drop/);
      expect(restored).not.toContain(SERVER_ADDRESS);
      expect(
        (await readFile(path.join(dir, 'out', 'nftables.nft'), 'utf8')).includes(SERVER_ADDRESS),
      ).toBe(false);

      // Told to pull on every heartbeat, the agent keeps the refused version off.
      const seen = Date.parse(reported.last_seen ?? '');
      await waitFor('more heartbeats', async () => {
        const d = await view();
        return d.last_seen !== null && Date.parse(d.last_seen) > seen + 3000;
      });
      expect(table()).not.toContain(SERVER_ADDRESS);
      expect((await view()).config_version_local).toBe(before.config_version_local);

      // A policy change meanwhile is applied; the firewall stays as restored, and so does the
      // report of the rollback.
      const policy = await admin.ok<{ id: number }>('POST', '/policies/', { name: 'Empty' });
      await admin.ok('PUT', `/devices/${device.id}`, { policy_id: policy.id });
      const withPolicy = await waitFor('the policy applied', async () => {
        const d = await view();
        return d.policy_version_local === d.policy_version_remote &&
          d.policy_version_local !== before.policy_version_local
          ? d
          : undefined;
      });
      expect(withPolicy.config_version_local).toBe(before.config_version_local);
      expect(withPolicy.last_error).toBe(reported.last_error);
      expect(table()).not.toContain(SERVER_ADDRESS);

      // A corrected ruleset is a new version: applied, and the error cleared.
      expect((await saveRules([telnet])).status).toBe(200);
      const fixed = await current('the corrected ruleset applied');
      expect(fixed.config_version_local).toBe(version + 1);
      expect(table()).not.toContain('tcp dport 25');
    }, 180_000);
  },
);
