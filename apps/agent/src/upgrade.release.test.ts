// Agent upgrades end to end, with the agent as it ships (apps/agent/dist-release, made by
// `npm run build`), in each flavor: an installation laid out as install.sh makes it (versions/0.2.0 from the real
// build, `current`, the launcher, upgrade-guard), run by a supervisor that behaves like systemd
// with the unit's Restart=always and ExecStartPre=upgrade-guard, against a server whose
// AGENT_RELEASE_DIR holds a newer build. The console asks for the upgrade; the agent replaces
// itself. Then a newer build that exits at once: the guard restores the old one after the
// timeout, and the device says why.

import type { AgentFlavor, AgentRelease } from '@palisade/contract';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  chmod,
  copyFile,
  mkdir,
  mkdtemp,
  readdir,
  readlink,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRelease, EXECUTABLE_NAME, MODULE_NAME, RELEASE_DIR } from '../scripts/release.mjs';
import { agentVersion } from './build-info.js';
import { ConsoleClient, freePort, ServerProcess, waitFor } from './testing/processes.js';
import { Supervisor } from './testing/supervisor.js';

/** The checkout's version with its patch number raised by `step`: 0.2.0 → 0.2.1. */
const later = (step: number) =>
  agentVersion.replace(/^(\d+\.\d+\.)(\d+).*$/, (_, head: string, patch: string) => {
    return `${head}${Number(patch) + step}`;
  });
const NEXT = later(1);
const BROKEN = later(2);
/** Seconds a new version has to report in; short, so the failed upgrade is over quickly. */
const UPGRADE_TIMEOUT = 8;
const DEVICE_PASSWORD = 'upgrade-test-device-secret';

interface DeviceView {
  agent_version: string | null;
  agent_outdated: boolean;
  online: boolean;
  last_seen: string | null;
  upgrade: { version: string } | null;
  last_error: string | null;
}

/** Each flavor as the release names it and as install.sh installs and launches it. */
const FLAVORS: Record<
  AgentFlavor,
  { release: string; installed: string; launch: (program: string) => string; broken: string }
> = {
  executable: {
    release: EXECUTABLE_NAME,
    installed: 'palisade-agent',
    launch: (program) => `exec '${program}' "$@"`,
    broken: '#!/bin/sh\nexit 3\n',
  },
  'node-module': {
    release: MODULE_NAME,
    installed: MODULE_NAME,
    launch: (program) => `exec '${process.execPath}' '${program}' "$@"`,
    broken: 'process.exit(3);\n',
  },
};

/** A release folder holding one build of the flavor that exits at once (well-formed, useless). */
async function writeBrokenRelease(dir: string, version: string, flavor: AgentFlavor) {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const { release, broken } = FLAVORS[flavor];
  const bytes = Buffer.from(broken);
  await writeFile(path.join(dir, release), bytes, { mode: 0o755 });
  const manifest: AgentRelease = {
    version,
    protocol: 1,
    files: [
      {
        name: release,
        kind: flavor,
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      },
    ],
  };
  await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
}

describe.each(Object.keys(FLAVORS) as AgentFlavor[])(
  'an installed %s agent upgraded from the console',
  (flavor) => {
    const { release, installed, launch } = FLAVORS[flavor];
    let dir: string;
    let releaseDir: string;
    let installDir: string;
    let stateDir: string;
    let server: ServerProcess;
    let client: ConsoleClient;
    let supervisor: Supervisor;
    let deviceId: number;

    const device = () => client.ok<DeviceView>('GET', `/devices/${deviceId}`);
    const current = () => readlink(path.join(installDir, 'current'));

    beforeAll(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-upgrade-'));
      releaseDir = path.join(dir, 'release');
      installDir = path.join(dir, 'opt');
      stateDir = path.join(dir, 'state');
      await buildRelease({
        outDir: releaseDir,
        version: NEXT,
        executable: flavor === 'executable',
      });

      // The layout install.sh leaves.
      await mkdir(path.join(installDir, 'versions', agentVersion), { recursive: true });
      await mkdir(path.join(installDir, 'bin'));
      await mkdir(stateDir);
      await copyFile(
        path.join(RELEASE_DIR, release),
        path.join(installDir, 'versions', agentVersion, installed),
      );
      await symlink(path.join('versions', agentVersion), path.join(installDir, 'current'));
      const guard = path.join(installDir, 'bin/upgrade-guard');
      await copyFile(path.join(RELEASE_DIR, 'upgrade-guard.sh'), guard);
      const launcher = path.join(installDir, 'bin/palisade-agent');
      await writeFile(launcher, `#!/bin/sh\n${launch(`${installDir}/current/${installed}`)}\n`);
      await chmod(guard, 0o755);
      await chmod(launcher, 0o755);

      const port = await freePort();
      server = new ServerProcess(port, path.join(dir, 'data'), path.join(dir, 'server.log'), {
        AGENT_RELEASE_DIR: releaseDir,
      });
      await server.start();
      client = new ConsoleClient(server.url);
      await client.signIn();
      deviceId = (
        await client.ok<{ id: number }>('POST', '/devices/', {
          name: 'upgraded sensor',
          password: DEVICE_PASSWORD,
        })
      ).id;

      const config = path.join(dir, 'agent.json');
      await writeFile(
        config,
        JSON.stringify({
          server: server.url,
          'device-id': deviceId,
          'output-dir': path.join(dir, 'out'),
          'state-dir': stateDir,
          'install-dir': installDir,
          'upgrade-timeout': UPGRADE_TIMEOUT,
          heartbeat: 1,
        }),
      );
      const secret = path.join(dir, 'agent.secret');
      await writeFile(secret, `${DEVICE_PASSWORD}\n`, { mode: 0o600 });
      supervisor = new Supervisor({
        pre: [guard, '--install-dir', installDir, '--state-dir', stateDir],
        command: [launcher, 'run', '--config', config, '--password-file', secret],
        logFile: path.join(dir, 'agent.log'),
      });
      supervisor.start();
    }, 180_000);

    afterAll(async () => {
      await supervisor?.stop();
      await server?.stop();
      await rm(dir, { recursive: true, force: true });
    });

    it('shows the installed agent as outdated', async () => {
      const seen = await waitFor('the agent to report in', async () => {
        const view = await device();
        return view.online && view.agent_version === agentVersion ? view : undefined;
      });
      expect(seen).toMatchObject({ agent_outdated: true, upgrade: null });
    });

    it('upgrades it: the device reports the new version, which `current` names', async () => {
      expect(await client.ok('POST', '/devices/upgrade', { ids: [deviceId] })).toEqual({
        requested: 1,
        version: NEXT,
      });
      const upgraded = await waitFor(
        'the device to report the new version',
        async () => {
          const view = await device();
          return view.agent_version === NEXT && view.upgrade === null ? view : undefined;
        },
        90_000,
      );
      expect(upgraded).toMatchObject({ agent_outdated: false, last_error: null, online: true });
      expect(await current()).toBe(`versions/${NEXT}`);
      // Committed: the record is gone, the previous version kept for a way back.
      await waitFor(
        'the upgrade record to go',
        async () => !existsSync(path.join(stateDir, 'upgrade.json')),
      );
      expect((await readdir(path.join(installDir, 'versions'))).sort()).toEqual([
        agentVersion,
        NEXT,
      ]);
      // The supervisor started it once more, after the old version exited to be replaced.
      expect(supervisor.exits).toEqual([0]);
    }, 120_000);

    it('restores the old version when the new one never reports in, and says why', async () => {
      await writeBrokenRelease(releaseDir, BROKEN, flavor);
      expect(await client.ok('POST', '/devices/upgrade', { all: true })).toEqual({
        requested: 1,
        version: BROKEN,
      });
      const failed = await waitFor(
        'the device to report the failed upgrade',
        async () => {
          const view = await device();
          return view.upgrade === null && view.last_error !== null ? view : undefined;
        },
        120_000,
      );
      expect(failed).toMatchObject({ agent_version: NEXT, agent_outdated: true, online: true });
      expect(failed.last_error).toContain(`agent upgrade to ${BROKEN} failed`);
      expect(failed.last_error).toContain(`did not report in`);
      expect(failed.last_error).toContain(`${NEXT} restored`);
      expect(await current()).toBe(`versions/${NEXT}`);
      // The broken build ran (and exited 3) until the deadline; the guard's record was reported.
      expect(supervisor.exits).toContain(3);
      await waitFor(
        'the failure record to go',
        async () => !existsSync(path.join(stateDir, 'upgrade-failed.json')),
      );
      // The error stays while the restored agent runs: its next beats do not clear it.
      const later = await waitFor('two more heartbeats', async () => {
        const view = await device();
        return Date.parse(view.last_seen ?? '') >= Date.parse(failed.last_seen ?? '') + 2000
          ? view
          : undefined;
      });
      expect(later.last_error).toBe(failed.last_error);
    }, 180_000);
  },
);
