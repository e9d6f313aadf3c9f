// The agent of the end-to-end tests (e2e/agent): the release `npm run build` writes
// (apps/agent/dist-release/palisade-agent.mjs, the bundle sensors with Node run; the onboarding
// test installs the same build through install.sh), run under this Node as a child process with
// everything it keeps in a scratch folder. It needs no root: without a reload command that
// loads nftables.nft it never runs nft.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import type {
  Device,
  EnrolmentToken,
  ImportReport,
  ListResponse,
  Policy,
  RuleSummary,
} from '@palisade/contract';
import { ROOT } from './env.ts';
import { groupNamed, importRules, ok, rulesText, uniqueSids } from './rest.ts';

export const AGENT_BUNDLE = path.join(ROOT, 'apps/agent/dist-release/palisade-agent.mjs');

/** The version of the built agent, as its release manifest (and the server) name it. */
export async function builtAgentVersion(): Promise<string> {
  const manifest = path.join(path.dirname(AGENT_BUNDLE), 'manifest.json');
  return (JSON.parse(await readFile(manifest, 'utf8')) as { version: string }).version;
}

export interface Finished {
  /** The exit code (null when a signal ended it). */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A short agent command (`enrol`) run to its end in `cwd`, with `env` added. */
export function runAgent(args: string[], cwd: string, env: Record<string, string> = {}) {
  return new Promise<Finished>((resolve) => {
    execFile(
      process.execPath,
      [AGENT_BUNDLE, ...args],
      { cwd, env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A running `palisade-agent run`: its output goes to `logFile`. */
export interface RunningAgent {
  /** SIGTERM, then the exit code once it has exited (SIGKILL after 15 s: code null). */
  stop: () => Promise<number | null>;
  /** The agent's output so far. */
  log: () => Promise<string>;
}

/** `palisade-agent run` with `args`, from `cwd`, until stopped. */
export function startAgent(args: string[], cwd: string, logFile: string): RunningAgent {
  const out = createWriteStream(logFile, { flags: 'a' });
  const child: ChildProcess = spawn(process.execPath, [AGENT_BUNDLE, 'run', ...args], {
    cwd,
    env: process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(out, { end: false });
  child.stderr?.pipe(out, { end: false });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        const code = await exited;
        clearTimeout(killer);
        return code;
      }
      return exited;
    },
    log: () => readFile(logFile, 'utf8'),
  };
}

/** A policy of three new rules and a device on it, enrolled by the built agent in `dir`. */
export interface EnrolledSensor {
  device: Device;
  policy: Policy;
  /** The policy's rules' ids, in the order of their sids. */
  ruleIds: number[];
  /** `run`'s arguments besides the reload command: the enrolled config, password and folders. */
  args: string[];
  /** The folder the bundle is written to (where reload commands run). */
  outputDir: string;
}

/**
 * Arranges through the API a policy of three new rules and a device on it, issues the device
 * an enrolment token and runs `palisade-agent enrol` with it, as install.sh does: the config
 * and password files it writes are what `run` starts with.
 */
export async function enrolledSensor(
  admin: APIRequestContext,
  { baseUrl, dir, name }: { baseUrl: string; dir: string; name: string },
): Promise<EnrolledSensor> {
  const sids = uniqueSids(3);
  const report = await ok<ImportReport>(
    importRules(admin, { name: `${name}.rules`, text: rulesText(sids) }),
  );
  const group = await groupNamed(admin, report.files[0]?.group ?? '');
  if (group === undefined) throw new Error(`no group for ${name}.rules`);
  const policy = await ok<Policy>(
    admin.post('policies/', { data: { name, group_ids: [group.id] } }),
  );
  const rules = await ok<ListResponse<RuleSummary>>(
    admin.get(`rules/?${new URLSearchParams({ filter: `group_id:${group.id}`, sortBy: 'sid' })}`),
  );
  const device = await ok<Device>(
    admin.post('devices/', {
      data: { name, password: `${name}-unused#1`, policy_id: policy.id },
    }),
  );
  const { token } = await ok<EnrolmentToken>(
    admin.post(`devices/${device.id}/enrolment`, { data: {} }),
  );

  const config = path.join(dir, 'agent.json');
  const password = path.join(dir, 'agent.secret');
  const enrol = await runAgent(
    ['enrol', '--server', baseUrl, '--config', config, '--password-file', password],
    dir,
    { PALISADE_ENROL_TOKEN: token },
  );
  if (enrol.code !== 0) throw new Error(`enrol failed (${enrol.code}): ${enrol.stderr}`);
  if (enrol.stdout !== `enrolled as device ${device.id} (${name})\n`) {
    throw new Error(`enrol said: ${enrol.stdout}`);
  }
  const outputDir = path.join(dir, 'out');
  return {
    device,
    policy,
    ruleIds: rules.data.map((rule) => rule.id),
    args: [
      '--config',
      config,
      '--password-file',
      password,
      '--output-dir',
      outputDir,
      '--state-dir',
      path.join(dir, 'state'),
      '--log-level',
      'debug',
    ],
    outputDir,
  };
}

/** An enrolled sensor with its agent running, as `withSensorAgent` hands it to a test. */
export interface SensorAgent extends EnrolledSensor {
  /** The scratch folder the agent keeps everything in. */
  dir: string;
  agent: RunningAgent;
  /** The device as the API shows it now. */
  view: () => Promise<Device>;
}

/**
 * An enrolled sensor (`enrolledSensor`) in a new scratch folder, its agent started with the
 * reload command `reload(dir)` writes; `use` runs with it, then the agent is stopped and the
 * folder removed, whatever `use` did.
 */
export async function withSensorAgent(
  admin: APIRequestContext,
  options: { baseUrl: string; name: string; reload: (dir: string) => Promise<string> },
  use: (sensor: SensorAgent) => Promise<void>,
): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'palisade-e2e-agent-'));
  let agent: RunningAgent | undefined;
  try {
    const sensor = await enrolledSensor(admin, {
      baseUrl: options.baseUrl,
      dir,
      name: options.name,
    });
    const reload = await options.reload(dir);
    agent = startAgent([...sensor.args, '--reload-cmd', reload], dir, path.join(dir, 'agent.log'));
    const view = () => ok<Device>(admin.get(`devices/${sensor.device.id}`));
    await use({ ...sensor, dir, agent, view });
  } finally {
    await agent?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
