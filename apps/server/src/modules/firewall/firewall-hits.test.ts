// Firewall rule hits: agents report their chains' counters by position with the config
// version they run; the ruleset answers hits per rule over 1, 7 or 30 days, a reload counting
// from zero again, and marks rules no device saw a packet match in 30 days.

import type { Device, FirewallHits } from '@palisade/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { enrolDevice } from '../../test/fixtures.js';
import { applyRetention } from '../../plugins/retention.js';

const ssh = { chain: 'input', action: 'accept', protocol: 'tcp', destination_ports: '22' };
/** Rendered as two nftables rules (tcp and udp). */
const dns = { chain: 'input', action: 'accept', protocol: 'tcp_udp', destination_ports: '53' };
const telnet = { chain: 'input', action: 'drop', protocol: 'tcp', destination_ports: '23' };
const smtp = { chain: 'output', action: 'drop', protocol: 'tcp', destination_ports: '25' };
const quiet = { chain: 'input', action: 'accept', protocol: 'tcp', destination_ports: '8080' };
const LOADED = '2026-11-28T10:00:00.000Z';

describe('firewall rule hits', () => {
  let server: TestServer;
  let admin: { authorization: string };
  let rulesetId: number;
  const agents: { authorization: string; id: number }[] = [];

  const device = async (name: string) => {
    const { id, agent } = await enrolDevice(server.app, admin, { name, firewall_id: rulesetId });
    return {
      id,
      ...agent,
    };
  };
  const configVersion = async (id: number) =>
    (await api(server.app, { url: `/devices/${id}`, headers: admin })).json<Device>()
      .config_version_remote;
  const beat = async (
    agent: { authorization: string; id: number },
    chains: object,
    over: { loaded_at?: string; config_version?: number } = {},
  ) => {
    const config = over.config_version ?? (await configVersion(agent.id));
    const answer = await api(server.app, {
      method: 'POST',
      url: '/agent/heartbeat',
      headers: { authorization: agent.authorization },
      payload: {
        state: 'running',
        local: { config_version: config, policy_version: 0 },
        agent_version: '0.3.0',
        firewall_hits: { config_version: config, loaded_at: over.loaded_at ?? LOADED, chains },
      },
    });
    expect(answer.statusCode).toBe(200);
  };
  const hits = async (days = 30) => {
    const answer = await api(server.app, {
      url: `/fwruleset/${rulesetId}/hits?days=${days}`,
      headers: admin,
    });
    expect(answer.statusCode).toBe(200);
    return answer.json<FirewallHits>();
  };
  const packets = async (days = 30) => (await hits(days)).rules.map((r) => r.packets);

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const ruleset = await api(server.app, {
      method: 'POST',
      url: '/fwruleset/',
      headers: admin,
      payload: {
        name: 'Edge',
        policies: { input: 'drop', forward: 'drop', output: 'accept' },
        rules: [
          ssh,
          dns,
          telnet,
          smtp,
          quiet,
          { ...ssh, destination_ports: '2222', counter: false },
        ],
      },
    });
    rulesetId = ruleset.json<{ id: number }>().id;
    agents.push(await device('edge-1'), await device('edge-2'));
  });
  afterAll(() => server.close());

  it('knows nothing before a device reports', async () => {
    expect(await hits()).toMatchObject({ days: 30 });
    expect((await hits()).rules).toEqual(
      Array.from({ length: 6 }, () => ({ packets: 0, bytes: 0, reported: false, idle: false })),
    );
  });

  it('sums each rule over its nftables rules and devices, and counts the growth', async () => {
    const [a, b] = agents as [(typeof agents)[0], (typeof agents)[0]];
    // input: ssh, dns/tcp, dns/udp, telnet, quiet, 2222 (no counter); output: smtp.
    await beat(a, {
      input: [[10, 1000], [3, 300], [4, 400], [0, 0], [0, 0], null],
      output: [[1, 60]],
    });
    await beat(b, { input: [[5, 500], [0, 0], [0, 0], [2, 120], [0, 0], null], output: [[0, 0]] });
    expect(await packets()).toEqual([15, 7, 2, 1, 0, 0]);
    // Cumulative: the next report adds only what grew.
    await beat(a, {
      input: [[12, 1200], [3, 300], [4, 400], [0, 0], [0, 0], null],
      output: [[1, 60]],
    });
    expect(await packets()).toEqual([17, 7, 2, 1, 0, 0]);
    const all = await hits(1);
    expect(all.rules[0]).toEqual({ packets: 17, bytes: 1700, reported: true, idle: false });
    expect(await packets(7)).toEqual([17, 7, 2, 1, 0, 0]);
  });

  it('marks a rule no packet matched on any device that runs it, not one without a counter', async () => {
    // Reported for less than 30 days: nothing is idle yet.
    expect((await hits()).rules.map((r) => r.idle)).toEqual(Array(6).fill(false));
    await server.db.query(
      `UPDATE firewall_rule_counters SET first_seen = now() - interval '31 days'
        WHERE ruleset_id = $1`,
      [rulesetId],
    );
    const rules = (await hits()).rules;
    expect(rules.map((r) => r.idle)).toEqual([false, false, false, false, true, false]);
    expect(rules[5]).toMatchObject({ reported: false });
  });

  it('has the retention job drop hits no window shows, of devices that stopped reporting too', async () => {
    const [a] = agents as [(typeof agents)[0]];
    await server.db.query(
      `INSERT INTO firewall_rule_hits (ruleset_id, rule_key, day, device_id, packets, bytes)
       VALUES ($1, 'gone', (now() AT TIME ZONE 'UTC')::date - 40, $2, 5, 500)`,
      [rulesetId, a.id],
    );
    const deleted = await applyRetention(server.db, {
      alertRetentionDays: 90,
      metricRetentionDays: 90,
    });
    expect(deleted['firewall_rule_hits']).toBe(1);
    expect(await packets()).toEqual([17, 7, 2, 1, 0, 0]);
  });

  it('counts from zero again after the table was loaded again', async () => {
    const [a] = agents as [(typeof agents)[0]];
    await beat(
      a,
      { input: [[1, 100], [0, 0], [0, 0], [0, 0], [0, 0], null], output: [[0, 0]] },
      { loaded_at: '2026-11-28T11:00:00.000Z' },
    );
    expect(await packets()).toEqual([18, 7, 2, 1, 0, 0]);
    // A counter that went back is a reload too.
    await beat(
      a,
      { input: [[0, 0], [0, 0], [0, 0], [0, 0], [0, 0], null], output: [[0, 0]] },
      { loaded_at: '2026-11-28T11:00:00.000Z' },
    );
    expect(await packets()).toEqual([18, 7, 2, 1, 0, 0]);
  });

  it('ignores a report of another version or shape, and follows a moved rule', async () => {
    const [a] = agents as [(typeof agents)[0]];
    const version = await configVersion(a.id);
    await beat(a, { input: [[99, 99]], output: [] });
    await beat(
      a,
      { input: [[99, 99], [0, 0], [0, 0], [0, 0], [0, 0], null], output: [[0, 0]] },
      { config_version: version - 1 },
    );
    expect(await packets()).toEqual([18, 7, 2, 1, 0, 0]);
    // Telnet moved first: its hits go with it.
    const moved = await api(server.app, {
      method: 'PUT',
      url: `/fwruleset/${rulesetId}`,
      headers: admin,
      payload: { name: 'Edge', rules: [telnet, ssh, dns, smtp, quiet] },
    });
    expect(moved.statusCode).toBe(200);
    expect(await packets()).toEqual([2, 18, 7, 1, 0]);
  });

  it('counts a staged device by the configuration deployed to it, not the one saved since', async () => {
    const [a] = agents as [(typeof agents)[0]];
    const call = (method: 'PUT' | 'POST', url: string, payload: object) =>
      api(server.app, { method, url, headers: admin, payload });
    // Staging pins each device at what it runs: input telnet, ssh, dns/tcp, dns/udp, quiet.
    expect(
      (await call('PUT', '/organization/settings', { deploy_mode: 'staged' })).statusCode,
    ).toBe(200);
    const deployed = await configVersion(a.id);
    // Saved, not deployed: quiet moves first, and a new rule follows it.
    const saved = await call('PUT', `/fwruleset/${rulesetId}`, {
      name: 'Edge',
      rules: [quiet, telnet, ssh, dns, smtp, { ...ssh, destination_ports: '2200' }],
    });
    expect(saved.statusCode).toBe(200);
    // The device is still given what was deployed; the saved version is the devices row's.
    expect(await configVersion(a.id)).toBe(deployed);
    const [row] = await server.db.query<{ config_version: number }>(
      'SELECT config_version FROM devices WHERE id = $1',
      [a.id],
    );
    const savedVersion = row?.config_version ?? 0;
    expect(savedVersion).toBeGreaterThan(deployed);
    expect(await packets()).toEqual([0, 2, 18, 7, 1, 0]);
    // The device reports the deployed layout: its fifth input rule is quiet, not dns/udp.
    await beat(
      a,
      {
        input: [
          [0, 0],
          [0, 0],
          [0, 0],
          [0, 0],
          [7, 700],
        ],
        output: [[0, 0]],
      },
      { config_version: deployed, loaded_at: '2026-11-28T12:00:00.000Z' },
    );
    expect(await packets()).toEqual([7, 2, 18, 7, 1, 0]);
    // A report of the saved version, which no deploy sent yet, is not counted.
    await beat(
      a,
      {
        input: [
          [9, 9],
          [9, 9],
          [9, 9],
          [9, 9],
          [9, 9],
          [9, 9],
          [9, 9],
        ],
        output: [[9, 9]],
      },
      { config_version: savedVersion, loaded_at: '2026-11-28T12:00:00.000Z' },
    );
    expect(await packets()).toEqual([7, 2, 18, 7, 1, 0]);
    // Once deployed, the device's reports are of the saved layout.
    expect((await call('POST', '/deployments/', { all: true })).statusCode).toBe(201);
    await beat(
      a,
      {
        input: [
          [1, 100],
          [0, 0],
          [0, 0],
          [0, 0],
          [0, 0],
          [3, 300],
        ],
        output: [[0, 0]],
      },
      { loaded_at: '2026-11-28T13:00:00.000Z' },
    );
    expect(await packets()).toEqual([8, 2, 18, 7, 1, 3]);
    await call('PUT', '/organization/settings', { deploy_mode: 'immediate' });
  });

  it('answers a bad window with 4xx, another organization with 404, nobody with 401', async () => {
    for (const days of ['2', 'x', '-1', '31']) {
      const answer = await api(server.app, {
        url: `/fwruleset/${rulesetId}/hits?days=${days}`,
        headers: admin,
      });
      expect(answer.statusCode).toBe(422);
    }
    expect(
      (await api(server.app, { url: `/fwruleset/${rulesetId + 1000}/hits`, headers: admin }))
        .statusCode,
    ).toBe(404);
    expect((await api(server.app, { url: `/fwruleset/${rulesetId}/hits` })).statusCode).toBe(401);
    const bad = await api(server.app, {
      method: 'POST',
      url: '/agent/heartbeat',
      headers: { authorization: (agents[0] as { authorization: string }).authorization },
      payload: {
        state: 'running',
        local: { config_version: 1, policy_version: 0 },
        agent_version: '0.3.0',
        firewall_hits: { config_version: 1, loaded_at: 'yesterday', chains: { input: [[-1, 0]] } },
      },
    });
    expect(bad.statusCode).toBe(422);
  });
});
