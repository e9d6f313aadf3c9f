// Server and agents as separate processes, as on a real deployment: sign-in, online, change →
// update pending → applied, a failing reload as the last error, a flush, alerts exactly once
// across a server restart, and what a device token may not open.

import type { Device, DeviceAlert } from '@palisade/contract';
import { appendFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentVersion } from './build-info.js';
import { loadEveCorpus } from './testing/corpus.js';
import type { ConsoleClient, ServerProcess } from './testing/processes.js';
import {
  agentProcess,
  deviceAgent,
  waitFor,
  type SourceProcess,
  startConsole,
} from './testing/processes.js';

const RULES = [
  'alert tcp $EXTERNAL_NET any -> $HOME_NET 22 (msg:"ET SCAN SSH brute force"; classtype:attempted-admin; sid:7100001; rev:2;)',
  'alert http $HOME_NET any -> $EXTERNAL_NET any (msg:"ET POLICY curl user agent"; classtype:policy-violation; sid:7100002; rev:1;)',
  'drop udp any any -> $HOME_NET 53 (msg:"ET DNS query for a sinkholed domain"; classtype:bad-unknown; sid:7100003; rev:1;)',
].join('\n');
const DEVICE_PASSWORD = 'device-password-0001';
const OTHER_PASSWORD = 'device-password-0002';

let dir: string;
let server: ServerProcess;
let admin: ConsoleClient;
let agent: SourceProcess;
let device: Device;
let other: Device;
let policyId: number;
let eve: string;

const view = (id: number) => admin.ok<Device>('GET', `/devices/${id}`);
const settled = (d: Device) =>
  d.online &&
  !d.update_pending &&
  d.config_version_local === d.config_version_remote &&
  d.policy_version_local === d.policy_version_remote;

/** Real corpus alerts, each given a distinct flow id so that every one can be told apart. */
const corpusAlerts = loadEveCorpus()
  .flatMap((f) => f.lines)
  .map((line) => JSON.parse(line) as Record<string, unknown>)
  .filter((event) => event.event_type === 'alert');
let nextFlow = 1;
function alertLines(count: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const event = corpusAlerts[(nextFlow * 37) % corpusAlerts.length] ?? {};
    lines.push(JSON.stringify({ ...event, flow_id: nextFlow++ }));
  }
  return lines.map((l) => `${l}\n`).join('');
}

async function agentLogin(deviceId: number, password: string) {
  const response = await fetch(`${server.url}/api/v1/agent/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ device_id: deviceId, password, protocol: 1 }),
  });
  if (!response.ok) return { status: response.status, token: '' };
  return { status: 200, token: ((await response.json()) as { access_token: string }).access_token };
}

/** Alert batches the device's agent holds, not yet acknowledged (its spool, see spool.ts). */
async function spooledBatches(): Promise<number> {
  const names = await readdir(path.join(dir, 'state', 'alerts')).catch(() => []);
  return names.filter((name) => /^\d+\.json$/.test(name)).length;
}

describe('agent and server as processes', () => {
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-agent-it-'));
    ({ server, admin } = await startConsole(dir));
    await admin.importRules('local.rules', RULES);
    const groups = await admin.ok<{ data: { id: number }[] }>('GET', '/groups/');
    policyId = (
      await admin.ok<{ id: number }>('POST', '/policies/', {
        name: 'Sensors',
        group_ids: groups.data.map((g) => g.id),
      })
    ).id;
    const profile = await admin.ok<{ id: number }>('POST', '/deviceconfigurationprofiles/', {
      name: 'Branch',
      variables: { HOME_NET: '[10.0.0.0/8]', EXTERNAL_NET: '!$HOME_NET', HTTP_PORTS: '80' },
    });
    device = await admin.ok<Device>('POST', '/devices/', {
      name: 'sensor-1',
      password: DEVICE_PASSWORD,
      policy_id: policyId,
      profile_id: profile.id,
    });
    other = await admin.ok<Device>('POST', '/devices/', {
      name: 'sensor-2',
      password: OTHER_PASSWORD,
    });

    eve = path.join(dir, 'eve.json');
    await writeFile(path.join(dir, 'password'), `${DEVICE_PASSWORD}\n`);
    // The reload fails while `fail` exists and is slow while `slow` exists.
    await writeFile(
      path.join(dir, 'reload.sh'),
      `if [ -e "${dir}/slow" ]; then sleep 3; fi\n` +
        `if [ -e "${dir}/fail" ]; then echo "suricata: rule reload failed: bad option in rule 3" >&2; exit 4; fi\n` +
        `cp palisade.rules "${dir}/applied.rules"\n`,
    );
    // Server and password file from the environment twins, as a service unit would give them.
    agent = deviceAgent(server.url, device.id, dir, [
      '--reload-cmd',
      `sh ${path.join(dir, 'reload.sh')}`,
      '--eve',
      eve,
      '--eve-start',
      'beginning',
      '--batch-delay',
      '200',
      '--heartbeat',
      '2',
    ]);
    agent.start();
  }, 180_000);

  afterAll(async () => {
    await agent?.stop();
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 120_000);

  it('signs in, goes online and applies its first bundle', async () => {
    const online = await waitFor('the device online with its versions applied', async () => {
      const d = await view(device.id);
      return settled(d) ? d : undefined;
    });
    expect(online.state).toBe('running');
    expect(online.agent_version).toBe(agentVersion);
    expect(online.metrics?.memory_total).toBeGreaterThan(0);
    expect(online.last_error).toBeNull();
  }, 120_000);

  it('shows update pending after a policy change, then applies it', async () => {
    await writeFile(path.join(dir, 'slow'), '');
    const before = await view(device.id);
    await admin.ok('PUT', `/policies/${policyId}`, {
      thresholds: [{ kind: 'suppress', gid: 1, sid: 7100001, track: 'by_src', ip: '10.9.9.9' }],
    });
    const pending = await view(device.id);
    expect(pending.policy_version_remote).toBeGreaterThan(before.policy_version_remote);
    expect(pending.update_pending).toBe(true);
    const applied = await waitFor('the new policy applied', async () => {
      const d = await view(device.id);
      return settled(d) && d.policy_version_local === pending.policy_version_remote ? d : undefined;
    });
    expect(applied.last_error).toBeNull();
    await rm(path.join(dir, 'slow'));
  }, 120_000);

  it('reports a failing reload as the last error, and recovers on a flush', async () => {
    await writeFile(path.join(dir, 'fail'), '');
    await admin.ok('PUT', `/policies/${policyId}`, {
      thresholds: [{ kind: 'suppress', gid: 1, sid: 7100001, track: 'by_src', ip: '10.8.8.8' }],
    });
    const failed = await waitFor('the error shown', async () => {
      const d = await view(device.id);
      return d.last_error ? d : undefined;
    });
    expect(failed.last_error).toContain('exit code 4');
    expect(failed.last_error).toContain('bad option in rule 3');
    expect(failed.update_pending).toBe(true);
    expect(failed.state).toBe('error');

    await rm(path.join(dir, 'fail'));
    await admin.ok('GET', `/deviceupdate/${device.id}`);
    const recovered = await waitFor('the flush applied', async () => {
      const d = await view(device.id);
      return settled(d) && d.last_error === null ? d : undefined;
    });
    expect(recovered.state).toBe('running');
  }, 120_000);

  it('delivers every alert exactly once across a server restart and an agent crash', async () => {
    const alerts = () => admin.ok<{ data: DeviceAlert[] }>('GET', `/devicelogsnort/${device.id}`);
    await appendFile(eve, alertLines(30));
    await waitFor('30 alerts stored', async () => (await alerts()).data.length === 30);

    await server.stop();
    await appendFile(eve, alertLines(25)); // the agent spools these while the server is down
    await waitFor('the alerts spooled', async () => (await spooledBatches()) > 0);
    await appendFile(eve, alertLines(25));
    await server.start();
    await admin.signIn();

    const stored = await waitFor(
      '80 alerts stored',
      async () => {
        const { data } = await alerts();
        return data.length >= 80 ? data : undefined;
      },
      60_000,
    );
    // Every batch acknowledged: the agent has nothing left that it could send again.
    await waitFor('the spool emptied', async () => (await spooledBatches()) === 0);
    const final = (await alerts()).data;
    expect(final.length).toBe(80);
    const flows = final.map((a) => a.flow_id).sort((a, b) => (a ?? 0) - (b ?? 0));
    expect(flows).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
    expect(stored.every((a) => a.sid !== null && a.msg !== null)).toBe(true);

    // The agent is killed mid-stream, more alerts arrive, it starts again.
    await appendFile(eve, alertLines(10));
    await waitFor(
      'some of them read',
      async () => (await spooledBatches()) > 0 || (await alerts()).data.length > 80,
    );
    await agent.stop('SIGKILL');
    await appendFile(eve, alertLines(10));
    agent.start();
    await waitFor('100 alerts stored', async () => (await alerts()).data.length >= 100, 60_000);
    await waitFor('the spool emptied', async () => (await spooledBatches()) === 0);
    const afterCrash = (await alerts()).data;
    expect(afterCrash.length).toBe(100);
    expect(afterCrash.map((a) => a.flow_id).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
      Array.from({ length: 100 }, (_, i) => i + 1),
    );
  }, 240_000);

  it("ships the agent's own log lines", async () => {
    const log = await waitFor('the agent log lines', async () => {
      const { data } = await admin.ok<{ data: { level: string; msg: string }[] }>(
        'GET',
        `/devicelog/${device.id}`,
      );
      return data.some((l) => l.msg.startsWith('bundle applied')) ? data : undefined;
    });
    expect(log.some((l) => l.level === 'error' && l.msg.includes('bad option in rule 3'))).toBe(
      true,
    );
  }, 120_000);

  it('runs a simulated fleet whose alerts name its policy, and that heartbeats alone keep current', async () => {
    const fleet = [];
    for (let i = 0; i < 2; i++) {
      fleet.push(
        await admin.ok<Device>('POST', '/devices/', {
          name: `fleet-${i}`,
          password: DEVICE_PASSWORD,
          policy_id: policyId,
        }),
      );
    }
    const first = fleet[0]?.id ?? 0;
    expect(fleet[1]?.id).toBe(first + 1);
    const fleetProcess = agentProcess(
      [
        'fleet',
        '--count',
        '2',
        '--device-id',
        String(first),
        '--output-dir',
        path.join(dir, 'fleet-out'),
        '--state-dir',
        path.join(dir, 'fleet-state'),
        '--simulate-rate',
        '20',
        '--batch-delay',
        '200',
        '--start-spread',
        '0.5',
        // No push channel: the fleet learns of changes from its heartbeats alone.
        '--no-push',
        '--heartbeat',
        '1',
      ],
      path.join(dir, 'fleet.log'),
      { PALISADE_SERVER: server.url, PALISADE_PASSWORD: DEVICE_PASSWORD },
    );
    fleetProcess.start();
    try {
      for (const member of fleet) {
        const alerts = await waitFor('simulated alerts', async () => {
          const { data } = await admin.ok<{ data: DeviceAlert[] }>(
            'GET',
            `/devicelogsnort/${member.id}`,
          );
          return data.length >= 10 ? data : undefined;
        });
        for (const alert of alerts) {
          expect([7100001, 7100002, 7100003]).toContain(alert.sid);
          expect(RULES).toContain(`msg:"${alert.msg ?? ''}"`);
        }
        const viewed = await view(member.id);
        expect(settled(viewed)).toBe(true);
        expect(viewed.metrics?.cpu).toBeGreaterThan(0);
      }
      const changed = await admin.ok<{ id: number }>('PUT', `/policies/${policyId}`, {
        thresholds: [{ kind: 'suppress', gid: 1, sid: 7100002, track: 'by_dst', ip: '10.7.7.7' }],
      });
      expect(changed.id).toBe(policyId);
      const remote = (await view(device.id)).policy_version_remote;
      for (const member of fleet) {
        await waitFor('the change applied through heartbeats', async () => {
          const d = await view(member.id);
          return settled(d) && d.policy_version_local === remote;
        });
        // Simulated devices keep their bundles and spools in memory: nothing is written.
        expect(await readdir(path.join(dir, 'fleet-out', `device-${member.id}`))).toEqual([]);
        expect(await readdir(path.join(dir, 'fleet-state', `device-${member.id}`))).toEqual([]);
      }
    } finally {
      await fleetProcess.stop();
    }
  }, 120_000);

  it("keeps a device token to its own device's calls", async () => {
    const own = await agentLogin(device.id, DEVICE_PASSWORD);
    const theirs = await agentLogin(other.id, OTHER_PASSWORD);
    expect((await agentLogin(other.id, DEVICE_PASSWORD)).status).toBe(401);

    const bundle = async (token: string) => {
      const response = await fetch(`${server.url}/api/v1/agent/bundle`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return (await response.json()) as { rules: string };
    };
    expect((await bundle(own.token)).rules).toContain('sid:7100001');
    expect((await bundle(theirs.token)).rules).not.toContain('sid:7100001');

    for (const route of [
      '/devices/',
      `/devices/${other.id}`,
      `/devicelogsnort/${other.id}`,
      `/deviceupdate/${other.id}`,
      '/users/me',
    ]) {
      const response = await fetch(`${server.url}/api/v1${route}`, {
        headers: { authorization: `Bearer ${own.token}` },
      });
      expect([401, 403], route).toContain(response.status);
    }
    const consoleOnAgent = await fetch(`${server.url}/api/v1/agent/bundle`, {
      headers: { authorization: admin.authorization },
    });
    expect([401, 403]).toContain(consoleOnAgent.status);
  }, 30_000);
});
