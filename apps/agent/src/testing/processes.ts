// Real processes for the integration tests and the benchmark: the Palisade server on a scratch
// PGlite data folder and agents, each started from source the way `npm start` would (or, for
// agents, the built release PALISADE_AGENT_COMMAND names), plus a small console client. Test and
// bench code only.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './corpus.js';

export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = 'Admin-passw0rd!';

/**
 * The embedded database folder of a server's first start, made once per test run
 * (console-image.setup.ts): a ServerProcess on an empty folder starts from a copy of it.
 */
export const CONSOLE_IMAGE = 'PALISADE_TEST_CONSOLE_IMAGE';

/** Where the server keeps its embedded database in a data folder (see db/client.ts). */
export const embeddedDatabaseIn = (dataDir: string): string => path.join(dataDir, 'pglite');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 60_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== null && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const detail = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A child process of the tests, its output appended to a log file. */
export class TestProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();

  constructor(
    /** The program and its first arguments; `args` follow them. */
    private readonly command: string[],
    private readonly args: string[],
    private readonly env: Record<string, string>,
    private readonly logFile: string,
    private readonly cwd = repoRoot,
  ) {}

  start(): void {
    const log = createWriteStream(this.logFile, { flags: 'a' });
    const [program = process.execPath, ...first] = this.command;
    const child = spawn(program, [...first, ...this.args], {
      cwd: this.cwd,
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  /** The process id while it runs (a benchmark reads its memory from /proc). */
  get pid(): number | undefined {
    return this.running ? this.child?.pid : undefined;
  }

  get running(): boolean {
    return (
      this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null
    );
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    child.kill(signal);
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(killer);
  }
}

export class ServerProcess {
  readonly url: string;
  private readonly process: TestProcess;
  /** On the embedded database, with the image's Administrator: may begin from CONSOLE_IMAGE. */
  private readonly fromImage: boolean;

  constructor(
    readonly port: number,
    private readonly dataDir: string,
    logFile: string,
    env: Record<string, string> = {},
    /** Options for node itself (a benchmark's `--cpu-prof`). */
    nodeArgs: string[] = [],
  ) {
    // HOST in `env`: another address of this machine (a veth end a namespace reaches).
    this.url = `http://${env.HOST ?? '127.0.0.1'}:${port}`;
    this.fromImage =
      env.DATABASE_URL === undefined &&
      env.ADMIN_EMAIL === undefined &&
      env.ADMIN_PASSWORD === undefined;
    this.process = sourceProcess(
      path.join(repoRoot, 'apps/server/src/main.ts'),
      [],
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ADMIN_EMAIL,
        ADMIN_PASSWORD,
        LOG_LEVEL: 'warn',
        SECRET_KEY: 'integration-secret-key-0123456789abcdef',
        ...env,
      },
      logFile,
      nodeArgs,
    );
  }

  async start(timeoutMs = 90_000): Promise<void> {
    const image = process.env[CONSOLE_IMAGE];
    const database = embeddedDatabaseIn(this.dataDir);
    if (this.fromImage && image && existsSync(image) && !existsSync(database)) {
      await cp(image, database, { recursive: true });
    }
    this.process.start();
    await waitFor(
      'the server to answer /api/v1/health',
      async () => {
        if (!this.process.running) throw new Error('the server exited');
        const response = await fetch(`${this.url}/api/v1/health`);
        return response.ok;
      },
      timeoutMs,
      200,
    );
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  stop(): Promise<void> {
    return this.process.stop();
  }
}

/**
 * A server process on a free port with its data and log in `dir`, started, and an
 * Administrator signed in to it: how every agent-and-server test begins.
 */
export async function startConsole(
  dir: string,
  env: Record<string, string> = {},
): Promise<{ server: ServerProcess; admin: ConsoleClient }> {
  const server = new ServerProcess(
    await freePort(),
    path.join(dir, 'data'),
    path.join(dir, 'server.log'),
    env,
  );
  await server.start();
  const admin = new ConsoleClient(server.url);
  await admin.signIn();
  return { server, admin };
}

const sourceNode = (nodeArgs: string[] = []) => [
  process.execPath,
  ...nodeArgs,
  '--conditions=palisade-source',
  '--import',
  'tsx',
];

/** Node running a TypeScript entry point of the repository from source. */
export function sourceProcess(
  script: string,
  args: string[],
  env: Record<string, string>,
  logFile: string,
  nodeArgs: string[] = [],
): TestProcess {
  return new TestProcess([...sourceNode(nodeArgs), script], args, env, logFile);
}

/** The name the agents' process had when they always ran from source. */
export type SourceProcess = TestProcess;

/**
 * How `palisade-agent` is started: from source, or as the built release PALISADE_AGENT_COMMAND
 * names (the executable's path, or `node /abs/palisade-agent.mjs`; split on spaces), which then
 * runs in the temporary folder, away from the repository and its node_modules.
 */
function agentCommand(nodeArgs: string[] = []): { command: string[]; cwd: string } {
  const built = process.env.PALISADE_AGENT_COMMAND?.trim();
  if (built) return { command: built.split(/\s+/), cwd: os.tmpdir() };
  return {
    command: [...sourceNode(nodeArgs), path.join(repoRoot, 'apps/agent/src/cli.ts')],
    cwd: repoRoot,
  };
}

/**
 * `palisade-agent` with `args`, running until stopped (see agentCommand); `nodeArgs` are options
 * for node when the agent runs from source.
 */
export function agentProcess(
  args: string[],
  logFile: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
  /** Runs the agent through this command (`ip netns exec NS`). */
  prefix: string[] = [],
): TestProcess {
  const { command, cwd } = agentCommand(nodeArgs);
  return new TestProcess([...prefix, ...command], args, env, logFile, cwd);
}

export interface Finished {
  /** The exit code (null when a signal ended it). */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A short agent command (`enrol`, `--version`) run to its end (see agentCommand). */
export function runAgent(args: string[], env: Record<string, string> = {}): Promise<Finished> {
  const { command, cwd } = agentCommand();
  const [program = process.execPath, ...first] = command;
  return new Promise((resolve) => {
    execFile(
      program,
      [...first, ...args],
      { cwd, env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * `palisade-agent run` for one device, with everything it keeps under `dir` (output, state,
 * agent.log; its password in dir/password) and the server and password file given by the
 * environment, as a service unit would. `args` adds reload commands, eve.json and the like.
 */
export function deviceAgent(
  serverUrl: string,
  deviceId: number,
  dir: string,
  args: string[],
  /** Runs the agent through this command (`ip netns exec NS`: the agent in a namespace). */
  prefix: string[] = [],
) {
  return agentProcess(
    [
      'run',
      '--device-id',
      String(deviceId),
      '--output-dir',
      path.join(dir, 'out'),
      '--state-dir',
      path.join(dir, 'state'),
      ...args,
    ],
    path.join(dir, 'agent.log'),
    { PALISADE_SERVER: serverUrl, PALISADE_PASSWORD_FILE: path.join(dir, 'password') },
    [],
    prefix,
  );
}

export interface Answer<T = unknown> {
  status: number;
  body: T;
}

/** The console's API as an administrator. */
export class ConsoleClient {
  private token = '';

  constructor(private readonly url: string) {}

  async signIn(email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<void> {
    const response = await fetch(`${this.url}/api/v1/login/access-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: email, password }).toString(),
    });
    if (!response.ok) throw new Error(`sign-in failed: HTTP ${response.status}`);
    this.token = ((await response.json()) as { access_token: string }).access_token;
  }

  get authorization(): string {
    return `Bearer ${this.token}`;
  }

  async call<T = unknown>(method: string, route: string, body?: unknown): Promise<Answer<T>> {
    const response = await fetch(`${this.url}/api/v1${route}`, {
      method,
      headers: {
        authorization: this.authorization,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text === '' ? null : JSON.parse(text)) as T };
  }

  async ok<T = unknown>(method: string, route: string, body?: unknown): Promise<T> {
    const answer = await this.call<T>(method, route, body);
    if (answer.status >= 300) {
      throw new Error(`${method} ${route}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    return answer.body;
  }

  /** Imports a rules file; each imported file becomes a group. */
  async importRules(name: string, text: string): Promise<void> {
    const form = new FormData();
    form.append('file', new Blob([text]), name);
    const response = await fetch(`${this.url}/api/v1/rules/import`, {
      method: 'POST',
      headers: { authorization: this.authorization },
      body: form,
    });
    if (!response.ok)
      throw new Error(`rule import: HTTP ${response.status} ${await response.text()}`);
  }
}
