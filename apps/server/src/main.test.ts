import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from './test/harness.js';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

interface Run {
  output: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** What onStarted returned while the server was up. */
  probe?: unknown;
}

/** Starts the real server process, waits for its banner (or its exit), then stops it with SIGTERM. */
function runServer(
  env: Record<string, string>,
  onStarted: (output: string) => Promise<unknown> = () => Promise.resolve(undefined),
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=palisade-source', '--import', 'tsx', MAIN],
      {
        env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    let started = false;
    let probe: unknown;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${output}`));
    }, 110_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!started && /is running at[\s\S]*\n\n/.test(output)) {
        started = true;
        void onStarted(output)
          .then((value) => (probe = value))
          .finally(() => child.kill('SIGTERM'));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ output, code, signal, probe });
    });
  });
}

// Two real process starts each; generous because a loaded machine starts node slowly.
describe('npm start (the server process)', { timeout: 240_000 }, () => {
  let dataDir: string;
  let scratch: ScratchDatabase;
  const database = (): Record<string, string> => (scratch.url ? { DATABASE_URL: scratch.url } : {});

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'palisade-main-'));
    scratch = await createScratchDatabase();
    // The process owns the database from here; the scratch handle only keeps its name.
    if (!scratch.url) await scratch.db.close();
  });
  afterAll(async () => {
    if (scratch.url) await scratch.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('prints the URL and, on first start only, a generated password that signs in', async () => {
    const first = await runServer({ DATA_DIR: dataDir, ...database() }, async (output) => {
      const url = /is running at (\S+)/.exec(output)?.[1] ?? '';
      const password = /generated password (\S+)/.exec(output)?.[1] ?? '';
      const response = await fetch(`${url}api/v1/login/access-token`, {
        method: 'POST',
        body: new URLSearchParams({ username: 'admin@palisade.local', password }),
      });
      return response.status;
    });
    expect(first.output).toMatch(/Palisade is running at http:\/\/127\.0\.0\.1:\d+\//);
    expect(first.output).not.toContain(':0/');
    expect(first.output).toContain('First start: sign in as admin@palisade.local');
    const password = /generated password (\S+)/.exec(first.output)?.[1];
    expect(password).toMatch(/[!@#$%]/);
    expect(first.probe, 'signing in with the printed password').toBe(200);
    expect(first.code === 0 || first.signal === 'SIGTERM', 'a clean stop on SIGTERM').toBe(true);

    const second = await runServer({ DATA_DIR: dataDir, ...database() });
    expect(second.output).toContain('Palisade is running at');
    expect(second.output).not.toContain('First start');
    expect(second.output).not.toContain(password);
  });

  it('refuses to start on a bad variable, saying which and why', async () => {
    const run = await runServer({ DATA_DIR: dataDir, PORT: '99999', AUTH_DISABLED: 'sometimes' });
    expect(run.code).toBe(2);
    expect(run.output).toContain('PORT="99999": must be a port number (0-65535)');
    expect(run.output).toContain('AUTH_DISABLED="sometimes": must be true or false');
  });
});
