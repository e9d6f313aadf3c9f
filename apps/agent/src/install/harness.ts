// What the install script's tests share: the built release, the script run the way the console's
// one-liner runs it (curl … | sh -s -- …) with the fake systemctl, and snapshots of a scratch
// root to compare byte for byte. Test code only.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cp, lstat, mkdir, readdir, readFile, readlink, symlink } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../testing/corpus.js';
import type { ConsoleClient } from '../testing/processes.js';

export const releaseDir = path.join(repoRoot, 'apps/agent/dist-release');
export const installScript = path.join(repoRoot, 'apps/agent/install/install.sh');
export const fakeSystemctl = path.join(repoRoot, 'apps/agent/src/testing/fake-systemctl.mjs');

interface ReleaseFile {
  name: string;
  sha256: string;
}

/** The release `npm run build` wrote; the tests that use it run after the build. */
export function readRelease(): { version: string; files: ReleaseFile[] } {
  const manifest = path.join(releaseDir, 'manifest.json');
  if (!existsSync(manifest)) throw new Error(`${manifest} is missing: run npm run build first`);
  return JSON.parse(readFileSync(manifest, 'utf8')) as { version: string; files: ReleaseFile[] };
}

/** A copy of the release the test server serves, so that a test may tamper with it. */
export async function copyRelease(to: string): Promise<string> {
  await cp(releaseDir, to, { recursive: true });
  return to;
}

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface InstallOptions {
  server: string;
  args: string[];
  /** Folder of the fake systemctl's call log and pid files. */
  systemdDir: string;
  root: string;
  /** Let the fake systemctl really run the unit (default: only record the calls). */
  startUnits?: boolean;
  env?: Record<string, string>;
  /** Run inside this network namespace. */
  netns?: string;
  /** A PATH of busybox applets only (see busyboxPath): wget instead of curl, busybox sh. */
  busybox?: string;
}

/** The programs install.sh uses, as busybox applets, and node for the node-module flavor. */
const APPLETS = [
  'sh',
  'awk',
  'cat',
  'chmod',
  'chown',
  'cmp',
  'cp',
  'cut',
  'dirname',
  'grep',
  'head',
  'id',
  'ln',
  'mkdir',
  'mktemp',
  'mv',
  'readlink',
  'rm',
  'rmdir',
  'sed',
  'sha256sum',
  'stat',
  'tr',
  'uname',
  'wget',
];

/** A folder to use as PATH on which every program is busybox's, as on a minimal sensor. */
export async function busyboxPath(dir: string): Promise<string> {
  const busybox = spawnSync('sh', ['-c', 'command -v busybox'], { encoding: 'utf8' }).stdout.trim();
  if (!busybox) throw new Error('busybox is not installed: run scripts/ensure-system-deps.sh');
  await mkdir(dir, { recursive: true });
  for (const applet of APPLETS) await symlink(busybox, path.join(dir, applet));
  await symlink(process.execPath, path.join(dir, 'node'));
  return dir;
}

/** The console's one-liner: the script fetched from the server and piped into sh. */
export function runInstall(options: InstallOptions): Run {
  const oneLiner = options.busybox
    ? 'wget -qO- "$0/api/v1/agent/install.sh" | sh -s -- "$@"'
    : 'curl -fsSL "$0/api/v1/agent/install.sh" | sh -s -- "$@"';
  const command = ['sh', '-c', oneLiner, options.server, ...options.args];
  const argv = options.netns ? ['ip', 'netns', 'exec', options.netns, ...command] : command;
  const env: Record<string, string | undefined> = {
    ...process.env,
    PALISADE_ENROL_TOKEN: undefined,
    SYSTEMCTL: fakeSystemctl,
    FAKE_SYSTEMCTL_ROOT: options.root,
    FAKE_SYSTEMCTL_DIR: options.systemdDir,
    FAKE_SYSTEMCTL_START: options.startUnits ? 'yes' : 'no',
    FAKE_SYSTEMCTL_RESTART_SEC: '1',
    ...(options.busybox ? { PATH: options.busybox } : {}),
    ...options.env,
  };
  const shell = options.busybox ? path.join(options.busybox, 'sh') : (argv[0] ?? 'sh');
  const result = spawnSync(shell, argv.slice(1), {
    env,
    encoding: 'utf8',
    timeout: 180_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The fake systemctl's calls since the log was last read, one string each. */
export function takeSystemctlCalls(systemdDir: string): string[] {
  const log = path.join(systemdDir, 'calls.log');
  if (!existsSync(log)) return [];
  const calls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  spawnSync('truncate', ['-s', '0', log]);
  return calls;
}

export interface Entry {
  path: string;
  kind: 'dir' | 'file' | 'link';
  mode: string;
  sha256?: string;
  target?: string;
  /** Inode and change time: a file rewritten with the same bytes still differs here. */
  identity: string;
}

/** Every path under `root`, sorted, with what it holds. */
export async function snapshot(root: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const name of (await readdir(dir)).sort()) {
      const full = path.join(dir, name);
      const stat = await lstat(full);
      const base = {
        path: path.relative(root, full),
        mode: (stat.mode & 0o7777).toString(8).padStart(4, '0'),
        identity: `${stat.ino}:${stat.ctimeMs}`,
      };
      if (stat.isSymbolicLink()) {
        entries.push({ ...base, kind: 'link', mode: '', target: await readlink(full) });
      } else if (stat.isDirectory()) {
        entries.push({ ...base, kind: 'dir' });
        await walk(full);
      } else {
        entries.push({ ...base, kind: 'file', sha256: sha256(await readFile(full)) });
      }
    }
  };
  await walk(root);
  return entries;
}

/** A snapshot without inodes and times: what a user would see with ls -l and cat. */
export function contents(entries: Entry[]): Omit<Entry, 'identity'>[] {
  return entries.map(({ identity: _identity, ...rest }) => rest);
}

/** A device whose policy holds `rules`, with an enrolment token issued for it. */
export async function deviceWithPolicy(admin: ConsoleClient, name: string, rules: string) {
  await admin.importRules(`${name}.rules`, rules);
  const groups = await admin.ok<{ data: { id: number; name: string }[] }>('GET', '/groups/');
  const group = groups.data.find((g) => g.name === name);
  if (!group) throw new Error(`the import made no group named ${name}`);
  const policy = await admin.ok<{ id: number }>('POST', '/policies/', {
    name: `${name} policy`,
    group_ids: [group.id],
  });
  const profile = await admin.ok<{ id: number }>('POST', '/deviceconfigurationprofiles/', {
    name: `${name} variables`,
    variables: { HOME_NET: '[10.0.0.0/8]', EXTERNAL_NET: '!$HOME_NET', HTTP_PORTS: '80' },
  });
  return admin.ok<{ id: number }>('POST', '/devices/', {
    name,
    password: `unused-${name}-password-0001`,
    policy_id: policy.id,
    profile_id: profile.id,
  });
}

export async function issueToken(admin: ConsoleClient, deviceId: number): Promise<string> {
  const answer = await admin.ok<{ token: string }>('POST', `/devices/${deviceId}/enrolment`, {});
  return answer.token;
}
