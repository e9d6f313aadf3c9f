// The console's one-liner for real: inside a network namespace that reaches the test server only
// over a veth pair, `curl … | sh -s -- --server … --token …` installs the built agent, the
// (fake) systemctl runs its unit, and the agent enrols, turns its device Online and applies the
// device's bundle. Needs root (ip netns).

import type { Device } from '@palisade/contract';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient, freePort, ServerProcess, waitFor } from '../testing/processes.js';
import { copyRelease, deviceWithPolicy, fakeSystemctl, issueToken, runInstall } from './harness.js';

const RULES = [
  'alert tcp $EXTERNAL_NET any -> $HOME_NET 3389 (msg:"ET SCAN RDP probe"; sid:7400001; rev:1;)',
  'alert dns $HOME_NET any -> any any (msg:"ET DNS query for a sinkholed domain"; sid:7400002; rev:3;)',
].join('\n');

// Per-run names and a /30 of its own, so that runs side by side do not collide.
const tag = process.pid % 10_000;
const NETNS = `palisade-install-${tag}`;
const HOST_IF = `pih${tag}`;
const NS_IF = `pin${tag}`;
const SUBNET = `10.${200 + (tag % 50)}.${Math.floor(tag / 50) % 250}`;
const HOST_ADDR = `${SUBNET}.1`;
const NS_ADDR = `${SUBNET}.2`;

function ip(...args: string[]): void {
  const result = spawnSync('ip', args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`ip ${args.join(' ')}: ${result.stderr.trim()}`);
}

let dir: string;
let root: string;
let server: ServerProcess;
let admin: ConsoleClient;
let device: { id: number };

describe('the one-liner inside a network namespace', () => {
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-install-netns-'));
    root = path.join(dir, 'sensor');
    await mkdir(root);
    ip('netns', 'add', NETNS);
    ip('link', 'add', HOST_IF, 'type', 'veth', 'peer', 'name', NS_IF);
    ip('link', 'set', NS_IF, 'netns', NETNS);
    ip('addr', 'add', `${HOST_ADDR}/30`, 'dev', HOST_IF);
    ip('link', 'set', HOST_IF, 'up');
    ip('-n', NETNS, 'addr', 'add', `${NS_ADDR}/30`, 'dev', NS_IF);
    ip('-n', NETNS, 'link', 'set', NS_IF, 'up');
    ip('-n', NETNS, 'link', 'set', 'lo', 'up');

    server = new ServerProcess(
      await freePort(),
      path.join(dir, 'data'),
      path.join(dir, 'server.log'),
      // Listening on every address: the agent comes in over the veth pair.
      { AGENT_RELEASE_DIR: await copyRelease(path.join(dir, 'release')), HOST: '0.0.0.0' },
    );
    await server.start();
    admin = new ConsoleClient(server.url);
    await admin.signIn();
    device = await deviceWithPolicy(admin, 'netns-sensor', RULES);
  }, 240_000);

  afterAll(async () => {
    // The unit runs detached from the test: stop it through the same fake systemctl.
    if (root && existsSync(path.join(dir, 'systemd'))) {
      spawnSync(fakeSystemctl, ['stop', 'palisade-agent.service'], {
        env: {
          ...process.env,
          FAKE_SYSTEMCTL_ROOT: root,
          FAKE_SYSTEMCTL_DIR: path.join(dir, 'systemd'),
        },
      });
    }
    spawnSync('ip', ['netns', 'del', NETNS]);
    spawnSync('ip', ['link', 'del', HOST_IF]);
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 120_000);

  it('installs, enrols, goes Online and applies the bundle', async () => {
    const origin = `http://${HOST_ADDR}:${server.port}`;
    const token = await issueToken(admin, device.id);
    const run = runInstall({
      server: origin,
      netns: NETNS,
      root,
      systemdDir: path.join(dir, 'systemd'),
      startUnits: true,
      args: ['--root', root, '--server', origin, '--token', token],
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`enrolled as device ${device.id}`);

    const settled = await waitFor(
      'the device Online with its bundle applied',
      async () => {
        const d = await admin.ok<Device>('GET', `/devices/${device.id}`);
        const applied =
          d.online &&
          d.config_version_local === d.config_version_remote &&
          d.policy_version_local === d.policy_version_remote;
        return applied ? d : undefined;
      },
      90_000,
      250,
    );
    expect(settled.online).toBe(true);
    expect(settled.policy_version_local).toBe(settled.policy_version_remote);

    const rules = await readFile(path.join(root, 'etc/suricata/palisade/palisade.rules'), 'utf8');
    expect(rules).toContain('sid:7400001;');
    expect(rules).toContain('sid:7400002;');
    // Run by the unit the script wrote (the namespace reaches nothing but the server).
    const log = await readFile(path.join(dir, 'systemd/palisade-agent.service.log'), 'utf8');
    expect(log).toContain(`ExecStart: ${root}/opt/palisade-agent/bin/palisade-agent run`);
  }, 240_000);
});
