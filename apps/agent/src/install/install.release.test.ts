// install.sh against the test server and the built release, into a scratch root with a recorded
// systemctl: the tree it writes, a second run that changes nothing, --uninstall leaving the
// root as it was, and the refusals (bad token, tampered download) that write nothing.

import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient, freePort, ServerProcess } from '../testing/processes.js';
import {
  busyboxPath,
  contents,
  copyRelease,
  deviceWithPolicy,
  issueToken,
  readRelease,
  runInstall,
  sha256,
  snapshot,
  takeSystemctlCalls,
  type Entry,
  type InstallOptions,
} from './harness.js';

const RULES = [
  'alert tcp $EXTERNAL_NET any -> $HOME_NET 22 (msg:"ET SCAN SSH brute force"; sid:7300001; rev:1;)',
  'alert http $HOME_NET any -> $EXTERNAL_NET any (msg:"ET POLICY curl user agent"; sid:7300002; rev:1;)',
].join('\n');
const SURICATA_YAML = [
  '%YAML 1.1',
  '---',
  'vars:',
  '  address-groups:',
  '    HOME_NET: "[192.168.0.0/16]"',
  'default-rule-path: /var/lib/suricata/rules',
  'rule-files:',
  '  - suricata.rules',
  'threshold-file: /etc/suricata/threshold.config',
  '',
].join('\n');

const release = readRelease();
let dir: string;
let releaseCopy: string;
let server: ServerProcess;
let admin: ConsoleClient;
let deviceId: number;

function install(root: string, args: string[], env: Record<string, string> = {}) {
  const options: InstallOptions = {
    server: server.url,
    root,
    systemdDir: path.join(dir, `systemd-${path.basename(root)}`),
    args: ['--root', root, ...args],
    env,
  };
  return runInstall(options);
}

async function scratchRoot(name: string): Promise<string> {
  const root = path.join(dir, name);
  await mkdir(root);
  return root;
}

async function enrolmentStatus(): Promise<string> {
  const answer = await admin.ok<{ status: string }>('GET', `/devices/${deviceId}/enrolment`);
  return answer.status;
}

describe('install.sh from the server into a scratch root', () => {
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-install-'));
    releaseCopy = await copyRelease(path.join(dir, 'release'));
    server = new ServerProcess(
      await freePort(),
      path.join(dir, 'data'),
      path.join(dir, 'server.log'),
      { AGENT_RELEASE_DIR: releaseCopy },
    );
    await server.start();
    admin = new ConsoleClient(server.url);
    await admin.signIn();
    deviceId = (await deviceWithPolicy(admin, 'branch-sensor', RULES)).id;
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('refuses a malformed token with one clear line and writes nothing', async () => {
    const root = await scratchRoot('malformed-token');
    const run = install(root, ['--server', server.url, '--token', 'pse_12_short']);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^palisade-agent install: error: the enrolment token is malformed/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(await snapshot(root)).toEqual([]);
  });

  it('refuses a token the server does not know and writes nothing', async () => {
    const root = await scratchRoot('unknown-token');
    const unknown = `pse_999999_${'A'.repeat(43)}`;
    const run = install(root, [
      '--server',
      server.url,
      '--flavor',
      'node-module',
      '--token',
      unknown,
    ]);
    expect(run.status).toBe(1);
    // The agent passes on the server's answer, then the script says what it did not do.
    expect(run.stderr).toContain('issue a new one in the console');
    expect(run.stderr).toMatch(/enrolment failed .*nothing was installed/);
    expect(await snapshot(root)).toEqual([]);
  });

  it('refuses a download whose checksum is wrong, writes nothing, keeps the token', async () => {
    const root = await scratchRoot('tampered');
    const token = await issueToken(admin, deviceId);
    const executable = path.join(releaseCopy, 'palisade-agent-linux-x64');
    const file = await open(executable, 'r+');
    const original = Buffer.alloc(1);
    await file.read(original, 0, 1, 4096);
    await file.write(Buffer.from([original[0]! ^ 0xff]), 0, 1, 4096);
    try {
      const run = install(root, ['--server', server.url, '--token', token]);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(
        /palisade-agent-linux-x64 is corrupt: its SHA-256 is [0-9a-f]{64}, the server's manifest says/,
      );
    } finally {
      await file.write(original, 0, 1, 4096);
      await file.close();
    }
    expect(await snapshot(root)).toEqual([]);
    expect(await enrolmentStatus()).toBe('active');
  });

  describe('an install, the same install again, and --uninstall', () => {
    let root: string;
    let before: Entry[];
    let installed: Entry[];
    let token: string;
    const users = () => path.join(dir, 'users.log');
    const userTools = () => ({
      USERADD: path.join(dir, 'useradd'),
      USERDEL: path.join(dir, 'userdel'),
    });

    beforeAll(async () => {
      root = await scratchRoot('sensor');
      await mkdir(path.join(root, 'etc/suricata'), { recursive: true });
      await writeFile(path.join(root, 'etc/suricata/suricata.yaml'), SURICATA_YAML);
      for (const [tool, file] of Object.entries(userTools())) {
        await writeFile(file, `#!/bin/sh\necho "${tool.toLowerCase()} $*" >> '${users()}'\n`);
        await chmod(file, 0o755);
      }
      before = await snapshot(root);
      token = await issueToken(admin, deviceId);
    });

    it('writes the agent, its launcher, config, secret and unit, and starts the unit', async () => {
      const run = install(
        root,
        ['--server', `${server.url}/`, '--token', token, '--configure-suricata'],
        userTools(),
      );
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toContain(`installed agent ${release.version} (executable)`);
      installed = await snapshot(root);

      const executable = release.files.find((f) => f.name === 'palisade-agent-linux-x64');
      const guard = release.files.find((f) => f.name === 'upgrade-guard.sh');
      const at = (p: string) => installed.find((e) => e.path === p);
      const version = `opt/palisade-agent/versions/${release.version}`;
      expect(installed.map((e) => `${e.kind} ${e.mode} ${e.path}`)).toEqual([
        'dir 0755 etc',
        'dir 0755 etc/palisade',
        'file 0644 etc/palisade/agent.json',
        'file 0600 etc/palisade/agent.secret',
        'file 0644 etc/palisade/installed',
        'dir 0755 etc/suricata',
        'dir 0755 etc/suricata/palisade',
        'file 0644 etc/suricata/palisade/variables.yaml',
        'file 0644 etc/suricata/suricata.yaml',
        'file 0644 etc/suricata/suricata.yaml.palisade-backup',
        'dir 0755 etc/systemd',
        'dir 0755 etc/systemd/system',
        'file 0644 etc/systemd/system/palisade-agent.service',
        'dir 0755 opt',
        'dir 0755 opt/palisade-agent',
        'dir 0755 opt/palisade-agent/bin',
        'file 0755 opt/palisade-agent/bin/palisade-agent',
        'file 0755 opt/palisade-agent/bin/upgrade-guard',
        'link  opt/palisade-agent/current',
        'dir 0755 opt/palisade-agent/versions',
        `dir 0755 ${version}`,
        `file 0755 ${version}/palisade-agent`,
        'dir 0755 usr',
        'dir 0755 usr/local',
        'dir 0755 usr/local/bin',
        'link  usr/local/bin/palisade-agent',
        'dir 0755 var',
        'dir 0755 var/lib',
        'dir 0750 var/lib/palisade-agent',
      ]);
      expect(at(`${version}/palisade-agent`)?.sha256).toBe(executable?.sha256);
      expect(at('opt/palisade-agent/bin/upgrade-guard')?.sha256).toBe(guard?.sha256);
      expect(at('opt/palisade-agent/current')?.target).toBe(`versions/${release.version}`);
      expect(at('usr/local/bin/palisade-agent')?.target).toBe(
        `${root}/opt/palisade-agent/bin/palisade-agent`,
      );
      const launcher = await readFile(path.join(root, 'opt/palisade-agent/bin/palisade-agent'));
      expect(launcher.toString()).toContain(
        `exec '${root}/opt/palisade-agent/current/palisade-agent' "$@"`,
      );

      const config = JSON.parse(
        await readFile(path.join(root, 'etc/palisade/agent.json'), 'utf8'),
      ) as Record<string, unknown>;
      expect(config).toMatchObject({
        server: server.url,
        'device-id': deviceId,
        'output-dir': `${root}/etc/suricata/palisade`,
        'state-dir': `${root}/var/lib/palisade-agent`,
        'install-dir': `${root}/opt/palisade-agent`,
      });
      expect(config['reload-cmd']).toEqual(expect.any(Array));

      // The secret is the device's password now: the server takes it.
      const password = (await readFile(path.join(root, 'etc/palisade/agent.secret'), 'utf8'))
        .split('\n')[0]
        ?.trim();
      const login = await fetch(`${server.url}/api/v1/agent/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ device_id: deviceId, password, protocol: 1 }),
      });
      expect(login.status).toBe(200);
      expect(await enrolmentStatus()).toBe('used');

      const unit = await readFile(
        path.join(root, 'etc/systemd/system/palisade-agent.service'),
        'utf8',
      );
      for (const line of [
        'User=palisade-agent',
        `LoadCredential=password:${root}/etc/palisade/agent.secret`,
        `ExecStartPre=${root}/opt/palisade-agent/bin/upgrade-guard --install-dir ${root}/opt/palisade-agent --state-dir ${root}/var/lib/palisade-agent`,
        `ExecStart=${root}/opt/palisade-agent/bin/palisade-agent run --config ${root}/etc/palisade/agent.json --password-file \${CREDENTIALS_DIRECTORY}/password`,
        'Restart=always',
        'RestartSec=5',
        'StartLimitIntervalSec=0',
        'AmbientCapabilities=CAP_NET_ADMIN',
        'CapabilityBoundingSet=CAP_NET_ADMIN',
        'NoNewPrivileges=yes',
        'ProtectSystem=strict',
        `ReadWritePaths=${root}/etc/suricata/palisade ${root}/opt/palisade-agent`,
        'StateDirectory=palisade-agent',
        'ProtectHome=yes',
        'PrivateTmp=yes',
      ]) {
        expect(unit.split('\n')).toContain(line);
      }

      const yaml = await readFile(path.join(root, 'etc/suricata/suricata.yaml'), 'utf8');
      const out = `${root}/etc/suricata/palisade`;
      expect(yaml).toContain(
        `rule-files:\n  - ${out}/palisade.rules  # palisade-agent\n  - suricata.rules\n`,
      );
      expect(yaml).toContain('#palisade-agent# threshold-file: /etc/suricata/threshold.config\n');
      expect(
        yaml.endsWith(
          `include: ${out}/variables.yaml  # palisade-agent\n` +
            `threshold-file: ${out}/threshold.config  # palisade-agent\n`,
        ),
      ).toBe(true);

      expect(takeSystemctlCalls(path.join(dir, 'systemd-sensor'))).toEqual([
        'daemon-reload',
        'is-enabled --quiet palisade-agent.service',
        'enable palisade-agent.service',
        'is-active --quiet palisade-agent.service',
        'start palisade-agent.service',
      ]);
      expect(await readFile(users(), 'utf8')).toMatch(
        /^useradd --system --user-group .* palisade-agent\n$/,
      );
    });

    it('has a unit that systemd-analyze verify accepts', () => {
      // Run on the written file: it checks every key and that ExecStartPre and ExecStart name
      // executables (they exist under the scratch root). User= needs no such user to verify.
      const verify = spawnSync(
        'systemd-analyze',
        ['verify', path.join(root, 'etc/systemd/system/palisade-agent.service')],
        { encoding: 'utf8' },
      );
      expect(verify.stderr).toBe('');
      expect(verify.status).toBe(0);
    });

    it('changes no byte and restarts nothing when run again', async () => {
      const run = install(
        root,
        ['--server', server.url, '--token', token, '--configure-suricata'],
        userTools(),
      );
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toContain(`already enrolled as device ${deviceId}`);
      expect(await snapshot(root)).toEqual(installed);
      expect(takeSystemctlCalls(path.join(dir, 'systemd-sensor'))).toEqual([
        'is-enabled --quiet palisade-agent.service',
        'is-active --quiet palisade-agent.service',
      ]);
    });

    it('leaves the root as it found it on --uninstall', async () => {
      const run = install(root, ['--uninstall'], userTools());
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(contents(await snapshot(root))).toEqual(contents(before));
      expect(await readFile(path.join(root, 'etc/suricata/suricata.yaml'), 'utf8')).toBe(
        SURICATA_YAML,
      );
      expect(takeSystemctlCalls(path.join(dir, 'systemd-sensor'))).toEqual([
        'disable --now palisade-agent.service',
        'daemon-reload',
      ]);
      expect((await readFile(users(), 'utf8')).split('\n').at(-2)).toBe('userdel palisade-agent');
    });
  });

  it('installs the node-module flavor with nothing but busybox, and removes it', async () => {
    const root = await scratchRoot('busybox');
    const run = runInstall({
      server: server.url,
      root,
      systemdDir: path.join(dir, 'systemd-busybox'),
      busybox: await busyboxPath(path.join(dir, 'busybox-bin')),
      args: [
        ...['--root', root, '--server', server.url, '--flavor', 'node-module'],
        ...['--token', await issueToken(admin, deviceId)],
      ],
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`installed agent ${release.version} (node-module)`);
    const agent = path.join(root, `opt/palisade-agent/versions/${release.version}`);
    expect(await readdir(agent)).toEqual(['palisade-agent.mjs']);
    const launcher = await readFile(path.join(root, 'opt/palisade-agent/bin/palisade-agent'));
    expect(launcher.toString()).toContain(
      `exec '${path.join(dir, 'busybox-bin/node')}' '${root}/opt/palisade-agent/current/palisade-agent.mjs' "$@"`,
    );

    const removed = runInstall({
      server: server.url,
      root,
      systemdDir: path.join(dir, 'systemd-busybox'),
      busybox: path.join(dir, 'busybox-bin'),
      args: ['--root', root, '--uninstall'],
    });
    expect(removed.stderr).toBe('');
    expect(removed.status).toBe(0);
    expect(await snapshot(root)).toEqual([]);
  });

  it('serves the script it tests', async () => {
    const response = await fetch(`${server.url}/api/v1/agent/install.sh`);
    const local = await readFile(path.join(releaseCopy, 'install.sh'));
    expect(sha256(Buffer.from(await response.arrayBuffer()))).toBe(sha256(local));
  });
});
