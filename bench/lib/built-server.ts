// The built server started as `npm start` runs it (apps/server/dist/main.js with a 64 MB young
// generation), for the benchmarks that measure what a user would run: on the embedded database
// in a data folder, or on PostgreSQL given a URL. Optionally pinned to one CPU with taskset.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const SERVER = path.join(ROOT, 'apps/server/dist/main.js');

/** True when `taskset -c cpu` works here (not on every machine or container). */
export function canPin(cpu: number): boolean {
  return spawnSync('taskset', ['-c', String(cpu), 'true']).status === 0;
}

/** The command run on `cpu` when it can be pinned, else as it is. */
export function pinnedTo(cpu: number | undefined, command: string[]): string[] {
  return cpu !== undefined && canPin(cpu) ? ['taskset', '-c', String(cpu), ...command] : command;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        resolve(typeof address === 'object' && address !== null ? address.port : 0),
      );
    });
  });
}

/** The first Administrator each bench's server is started with. */
export const BENCH_ADMIN = { email: 'admin@example.com', password: 'Admin#2026' };

/** Signs in as `who` (the bench's Administrator by default): a bearer token. */
export async function signIn(
  baseUrl: string,
  who: { email: string; password: string } = BENCH_ADMIN,
): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v1/login/access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: who.email, password: who.password }),
  });
  if (!response.ok) throw new Error(`sign-in: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

export interface BuiltServer {
  baseUrl: string;
  child: ChildProcess;
  /** Whether it runs pinned to the CPU asked for. */
  pinned: boolean;
  stop(): Promise<void>;
}

export async function startBuiltServer(options: {
  dataDir: string;
  /** PostgreSQL; without it the embedded database in dataDir (a DATABASE_URL set is ignored). */
  databaseUrl?: string;
  admin: { email: string; password: string };
  cpu?: number;
  healthTimeoutMs?: number;
  /** The server's stderr: shown (default) or not. */
  stderr?: 'inherit' | 'ignore';
}): Promise<BuiltServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // BENCH_SERVER_NODE_ARGS: more Node options for the server (`--cpu-prof --cpu-prof-dir=…`).
  const extra = process.env['BENCH_SERVER_NODE_ARGS']?.split(' ').filter(Boolean) ?? [];
  const node = [process.execPath, '--max-semi-space-size=64', ...extra, SERVER];
  const pinned = options.cpu !== undefined && canPin(options.cpu);
  const [command = '', ...args] = pinnedTo(options.cpu, node);
  const env = { ...process.env };
  delete env['DATABASE_URL'];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: {
      ...env,
      ...(options.databaseUrl === undefined ? {} : { DATABASE_URL: options.databaseUrl }),
      DATA_DIR: options.dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_EMAIL: options.admin.email,
      ADMIN_PASSWORD: options.admin.password,
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: 'warn',
    },
    stdio: [
      'ignore',
      process.env['BENCH_SERVER_LOG'] ? 'inherit' : 'ignore',
      options.stderr ?? 'inherit',
    ],
  });
  const timeoutMs = options.healthTimeoutMs ?? 120_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error('server exited early');
    const ok = await fetch(`${baseUrl}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not healthy within ${timeoutMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    baseUrl,
    child,
    pinned,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
