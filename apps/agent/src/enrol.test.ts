// `palisade-agent enrol` against the real server as a process: a token from the console becomes
// a password file and a config file with which `run` alone signs in and turns the device Online;
// every failure is one line, exit code 1, and leaves no file behind.

import type { Device } from '@palisade/contract';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleClient, ServerProcess } from './testing/processes.js';
import {
  agentProcess,
  freePort,
  runAgent,
  waitFor,
  type SourceProcess,
  startConsole,
} from './testing/processes.js';

const DEVICE_PASSWORD = 'device-password-enrol';
const REFUSED = /^palisade-agent: .*issue a new one in the console\n$/;

let dir: string;
let server: ServerProcess;
let admin: ConsoleClient;
let agent: SourceProcess | undefined;

const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

async function newDevice(name: string): Promise<Device> {
  return admin.ok<Device>('POST', '/devices/', { name, password: DEVICE_PASSWORD });
}

async function tokenFor(deviceId: number): Promise<string> {
  return (await admin.ok<{ token: string }>('POST', `/devices/${deviceId}/enrolment`, {})).token;
}

function enrol(token: string, files: { config: string; password: string }, serverUrl = server.url) {
  return runAgent(
    ['enrol', '--server', serverUrl, '--config', files.config, '--password-file', files.password],
    { PALISADE_ENROL_TOKEN: token },
  );
}

describe('palisade-agent enrol', () => {
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-enrol-it-'));
    ({ server, admin } = await startConsole(dir));
  }, 120_000);

  afterAll(async () => {
    await agent?.stop();
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('enrols into an existing config, and `run` with only its two files goes Online', async () => {
    const device = await newDevice('enrolled sensor');
    const home = path.join(dir, 'merge');
    await mkdir(home);
    const files = { config: path.join(home, 'agent.json'), password: path.join(home, 'secret') };
    // What install.sh writes besides the server and device id; a stale id is replaced.
    const written = {
      'output-dir': path.join(home, 'out'),
      'state-dir': path.join(home, 'state'),
      simulate: true,
      'log-level': 'info',
      'device-id': 999,
    };
    await writeFile(files.config, JSON.stringify(written), { mode: 0o640 });

    const result = await enrol(await tokenFor(device.id), files);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`enrolled as device ${device.id} (enrolled sensor)\n`);

    const config = JSON.parse(await readFile(files.config, 'utf8')) as Record<string, unknown>;
    expect(config).toEqual({ ...written, server: server.url, 'device-id': device.id });
    expect(await modeOf(files.config)).toBe(0o640);
    expect(await modeOf(files.password)).toBe(0o600);
    const password = (await readFile(files.password, 'utf8')).trim();
    expect(password).toHaveLength(24);
    expect(await readdir(home)).toEqual(['agent.json', 'secret']);

    agent = agentProcess(
      ['run', '--config', files.config, '--password-file', files.password],
      path.join(home, 'agent.log'),
    );
    agent.start();
    const online = await waitFor('the enrolled device to turn Online', async () => {
      const seen = await admin.ok<Device>('GET', `/devices/${device.id}`);
      return seen.online ? seen : undefined;
    });
    expect(online.agent_version).not.toBeNull();
    await agent.stop();
  }, 120_000);

  it('creates the folders and a new config with the server and device id only', async () => {
    const device = await newDevice('fresh sensor');
    const etc = path.join(dir, 'fresh', 'etc', 'palisade');
    const files = {
      config: path.join(etc, 'agent.json'),
      password: path.join(etc, 'agent.secret'),
    };
    const result = await enrol(await tokenFor(device.id), files);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(await readFile(files.config, 'utf8'))).toEqual({
      server: server.url,
      'device-id': device.id,
    });
    expect(await modeOf(files.config)).toBe(0o644);
    expect(await modeOf(files.password)).toBe(0o600);
    expect(await modeOf(etc)).toBe(0o755);
    expect(await modeOf(path.dirname(etc))).toBe(0o755);
  }, 60_000);

  it('refuses a used token in one line, exit code 1, leaving no file or folder', async () => {
    const device = await newDevice('twice sensor');
    const token = await tokenFor(device.id);
    const first = path.join(dir, 'first');
    const firstFiles = { config: path.join(first, 'a.json'), password: path.join(first, 'p') };
    expect((await enrol(token, firstFiles)).code).toBe(0);

    const again = path.join(dir, 'again');
    await mkdir(again);
    const files = {
      config: path.join(again, 'nested', 'agent.json'),
      password: path.join(again, 'nested', 'secret'),
    };
    const result = await enrol(token, files);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(REFUSED);
    expect(await readdir(again)).toEqual([]);
    // The first enrolment's password still signs in.
    const login = await fetch(`${server.url}/api/v1/agent/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        device_id: device.id,
        password: (await readFile(firstFiles.password, 'utf8')).trim(),
      }),
    });
    expect(login.status).toBe(200);
  }, 60_000);

  it('names the URL of a server it cannot reach, and writes nothing', async () => {
    const home = path.join(dir, 'unreachable');
    await mkdir(home);
    const files = { config: path.join(home, 'agent.json'), password: path.join(home, 'secret') };
    await writeFile(files.config, '{"output-dir": "/tmp/out"}');
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const result = await enrol(`pse_1_${'A'.repeat(43)}`, files, nowhere);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^palisade-agent: cannot reach the server at ${nowhere}: .+\\n$`),
    );
    expect(await readdir(home)).toEqual(['agent.json']);
    expect(await readFile(files.config, 'utf8')).toBe('{"output-dir": "/tmp/out"}');
  }, 60_000);

  it('refuses a token on the command line, saying why, without echoing it', async () => {
    const secret = `pse_7_${'S'.repeat(43)}`;
    const home = path.join(dir, 'argv');
    const result = await runAgent([
      'enrol',
      '--server',
      server.url,
      '--config',
      path.join(home, 'agent.json'),
      '--password-file',
      path.join(home, 'secret'),
      '--token',
      secret,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--token is refused: .*ps.*PALISADE_ENROL_TOKEN/);
    expect(result.stderr).not.toContain(secret);
    await expect(stat(home)).rejects.toThrow(/ENOENT/);
  }, 60_000);
});
