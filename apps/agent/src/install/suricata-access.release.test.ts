// install.sh giving the agent's user access to a root-only Suricata, for real: a throwaway system
// user, a root-owned 0640 eve.json and a command socket under a scratch root. Each check runs as
// that user (runuser), so it is the kernel that says whether the ACLs work: on the eve file, on
// an eve file Suricata makes after a rotation, on a socket Suricata binds at its next start and
// after a reboot; and that --uninstall takes all of it back. Needs root (useradd, runuser).

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient, freePort, ServerProcess } from '../testing/processes.js';
import {
  copyRelease,
  deviceWithPolicy,
  issueToken,
  runInstall,
  snapshot,
  takeSystemctlCalls,
} from './harness.js';

const RULES =
  'alert tcp $EXTERNAL_NET any -> $HOME_NET 23 (msg:"ET SCAN telnet probe"; sid:7500001; rev:1;)';
const EVENT = '{"event_type":"alert","alert":{"signature_id":7500001}}\n';
// Unique per run, and short enough for useradd.
const USER = `pal-acl-${process.pid}`;
// systemd's umask for a service that sets none, Suricata's packaged unit included.
const SYSTEMD_UMASK = 0o022;

let dir: string;
let root: string;
let server: ServerProcess;
let admin: ConsoleClient;
let userCreated = false;
let suricata: ChildProcess | undefined;

const evePath = () => path.join(root, 'var/log/suricata/eve.json');
const runDir = () => path.join(root, 'var/run/suricata');
const socketPath = () => path.join(runDir(), 'suricata-command.socket');
const dropIn = () => path.join(root, 'etc/systemd/system/suricata.service.d/palisade-agent.conf');

function asUser(...command: string[]) {
  return spawnSync('runuser', ['-u', USER, '--', ...command], { encoding: 'utf8' });
}

function userReads(file: string): string | null {
  const result = asUser('cat', file);
  return result.status === 0 ? result.stdout : null;
}

/** 'connected', or the error code the user's connect() got. */
function userConnects(socket: string): string {
  const script = `require('node:net').connect(process.argv[1])
    .on('connect', () => { console.log('connected'); process.exit(0); })
    .on('error', (error) => { console.log(error.code); process.exit(1); });`;
  return asUser(process.execPath, '-e', script, socket).stdout.trim();
}

function getfacl(...files: string[]): string {
  const result = spawnSync('getfacl', ['-pc', ...files], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`getfacl: ${result.stderr}`);
  return result.stdout;
}

/**
 * Suricata's command socket, bound by a root process with the umask Suricata would run under
 * (Suricata asks for 0660, node for 0777: either way the umask decides the group bits, which
 * become the ACL mask).
 */
async function startSuricataSocket(umask: number): Promise<void> {
  await stopSuricataSocket();
  const script = `process.umask(${umask});
    const server = require('node:net').createServer((c) => c.end());
    server.listen(process.argv[1], () => console.log('listening'));`;
  await rm(socketPath(), { force: true });
  const child = spawn(process.execPath, ['-e', script, socketPath()], { stdio: 'pipe' });
  suricata = child;
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => resolve());
    child.on('exit', (code) => reject(new Error(`socket stand-in exited with ${code}`)));
  });
}

async function stopSuricataSocket(): Promise<void> {
  const child = suricata;
  suricata = undefined;
  if (!child || child.exitCode !== null) return;
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill();
  });
}

function install(args: string[]) {
  return runInstall({
    server: server.url,
    root,
    systemdDir: path.join(dir, 'systemd'),
    args: ['--root', root, ...args],
    env: { PALISADE_AGENT_USER: USER },
  });
}

/** What a run could change here: every ACL under var/ and what the script wrote under etc/. */
async function state() {
  const acls = spawnSync('getfacl', ['-pR', path.join(root, 'var')], { encoding: 'utf8' }).stdout;
  return { acls, etc: await snapshot(path.join(root, 'etc')) };
}

describe("install.sh and a root-only Suricata's eve.json and command socket", () => {
  let before: string;
  let token: string;

  beforeAll(async () => {
    const useradd = spawnSync('useradd', ['--system', '--no-create-home', USER], {
      encoding: 'utf8',
    });
    if (useradd.status !== 0) throw new Error(`useradd ${USER}: ${useradd.stderr}`);
    userCreated = true;

    dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-acl-'));
    // The user must reach the scratch root, as it reaches / on a sensor.
    await chmod(dir, 0o755);
    root = path.join(dir, 'sensor');
    await mkdir(path.join(root, 'var/log/suricata'), { recursive: true, mode: 0o755 });
    await mkdir(runDir(), { recursive: true });
    await chmod(runDir(), 0o750);
    await writeFile(evePath(), EVENT, { mode: 0o640 });
    await chmod(evePath(), 0o640);
    await startSuricataSocket(SYSTEMD_UMASK);
    before = getfacl(path.dirname(evePath()), evePath(), runDir());

    server = new ServerProcess(
      await freePort(),
      path.join(dir, 'data'),
      path.join(dir, 'server.log'),
      { AGENT_RELEASE_DIR: await copyRelease(path.join(dir, 'release')) },
    );
    await server.start();
    admin = new ConsoleClient(server.url);
    await admin.signIn();
    token = await issueToken(admin, (await deviceWithPolicy(admin, 'acl-sensor', RULES)).id);
  }, 240_000);

  afterAll(async () => {
    await stopSuricataSocket();
    await server?.stop();
    if (userCreated) spawnSync('userdel', [USER]);
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('starts from a user that can neither read eve.json nor use the socket', () => {
    expect(userReads(evePath())).toBeNull();
    expect(userConnects(socketPath())).toBe('EACCES');
  });

  it('grants the user exactly that on install', async () => {
    const run = install(['--server', server.url, '--token', token]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`let ${USER} read Suricata's eve.json and use its command socket`);

    expect(userReads(evePath())).toBe(EVENT);
    expect(userConnects(socketPath())).toBe('connected');
    const eveDir = getfacl(path.dirname(evePath()));
    expect(eveDir).toContain(`\nuser:${USER}:r-x\n`);
    expect(eveDir).toContain(`\ndefault:user:${USER}:r--\n`);
    expect(getfacl(evePath())).toContain(`\nuser:${USER}:r--\n`);
    const runFolder = getfacl(runDir());
    // Enough to reach the socket; the user can neither list nor change Suricata's folder.
    expect(runFolder).toContain(`\nuser:${USER}:--x\n`);
    expect(runFolder).toContain(`\ndefault:user:${USER}:-w-\n`);
    expect(asUser('ls', runDir()).status).not.toBe(0);
    expect(asUser('touch', path.join(runDir(), 'x')).status).not.toBe(0);

    const unit = await readFile(path.join(root, 'etc/systemd/system/palisade-agent.service'));
    expect(unit.toString().split('\n')).toContain(`User=${USER}`);
    expect((await readFile(dropIn(), 'utf8')).split('\n')).toContain('UMask=0002');
    expect(takeSystemctlCalls(path.join(dir, 'systemd'))).toContain('daemon-reload');
  });

  it('lets the user read an eve.json that Suricata makes after a rotation', async () => {
    await rename(evePath(), `${evePath()}.1`);
    // Suricata's default filemode; the folder's default ACL passes the user's entry on.
    await writeFile(evePath(), EVENT, { mode: 0o640 });
    expect(userReads(evePath())).toBe(EVENT);
    expect(userReads(`${evePath()}.1`)).toBe(EVENT);
  });

  it("lets the user use the socket Suricata binds at its next start, under the drop-in's umask", async () => {
    // Why the drop-in: bind() applies the umask even under a default ACL, and systemd's 0022
    // leaves a mask that cuts the inherited write bit.
    await startSuricataSocket(SYSTEMD_UMASK);
    expect(userConnects(socketPath())).toBe('EACCES');

    const umask = /^UMask=(\d+)$/m.exec(await readFile(dropIn(), 'utf8'))?.[1];
    await startSuricataSocket(Number.parseInt(umask ?? 'none', 8));
    expect(userConnects(socketPath())).toBe('connected');
  });

  it('gives the run folder its entries again after a reboot empties /run', async () => {
    await stopSuricataSocket();
    await rm(runDir(), { recursive: true });
    const pre = (await readFile(dropIn(), 'utf8'))
      .split('\n')
      .filter((line) => line.startsWith('ExecStartPre=-'))
      .map((line) => line.slice('ExecStartPre=-'.length).split(' '));
    expect(pre).toHaveLength(2);
    for (const [command, ...args] of pre) {
      expect(spawnSync(command!, args, { encoding: 'utf8' }).status).toBe(0);
    }
    const umask = /^UMask=(\d+)$/m.exec(await readFile(dropIn(), 'utf8'))?.[1];
    await startSuricataSocket(Number.parseInt(umask ?? 'none', 8));
    expect(userConnects(socketPath())).toBe('connected');
  });

  it('changes nothing when run again', async () => {
    const first = await state();
    const run = install(['--server', server.url]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).not.toContain(`let ${USER} read`);
    expect(await state()).toEqual(first);
  });

  it('takes back every entry on --uninstall, and only those', async () => {
    const run = install(['--uninstall']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);

    expect(userReads(evePath())).toBeNull();
    expect(userReads(`${evePath()}.1`)).toBeNull();
    expect(userConnects(socketPath())).toBe('EACCES');
    // The first eve.json is eve.json.1 now; the folders were as they are again.
    expect(getfacl(path.dirname(evePath()), `${evePath()}.1`, runDir())).toBe(before);
    // What Suricata made meanwhile is as Suricata made it, no ACL left on it.
    expect(getfacl(evePath())).toBe('user::rw-\ngroup::r--\nother::---\n\n');
    const acls = spawnSync('getfacl', ['-pR', path.join(root, 'var')], { encoding: 'utf8' });
    expect(acls.stdout).not.toContain(USER);
    expect(acls.stdout).not.toContain('mask::');
    await expect(readFile(dropIn())).rejects.toThrow(/ENOENT/);
  });
});
