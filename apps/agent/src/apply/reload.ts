// Runs the configured reload commands one after another through /bin/sh, each with a time
// limit. The first failure stops the sequence and is described with its exit status and the end
// of its error output: that text becomes the device's last error in the console.

import { spawn } from 'node:child_process';

export interface ReloadOptions {
  cwd: string;
  env?: Record<string, string>;
  /** Per command. */
  timeoutMs: number;
}

export type ReloadResult = { ok: true } | { ok: false; error: string };

const OUTPUT_TAIL = 4000;

function tail(text: string): string {
  const trimmed = text.trim();
  return trimmed.length <= OUTPUT_TAIL ? trimmed : `…${trimmed.slice(-OUTPUT_TAIL)}`;
}

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  output: string;
  spawnError?: string;
}

function runOne(command: string, options: ReloadOptions): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, so a timeout kills the whole pipeline
    });
    let stderr = '';
    let stdout = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout = (stdout + chunk).slice(-OUTPUT_TAIL);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-OUTPUT_TAIL);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, signal: null, timedOut, output: '', spawnError: error.message });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, timedOut, output: stderr.trim() === '' ? stdout : stderr });
    });
  });
}

function describe(command: string, outcome: Outcome, timeoutMs: number): string {
  const head = outcome.spawnError
    ? `reload command "${command}" could not start: ${outcome.spawnError}`
    : outcome.timedOut
      ? `reload command "${command}" timed out after ${timeoutMs / 1000} s`
      : outcome.signal
        ? `reload command "${command}" was killed by ${outcome.signal}`
        : `reload command "${command}" failed with exit code ${outcome.code ?? '?'}`;
  const output = tail(outcome.output);
  return output === '' ? head : `${head}: ${output}`;
}

export async function runReloadCommands(
  commands: readonly string[],
  options: ReloadOptions,
): Promise<ReloadResult> {
  for (const command of commands) {
    const outcome = await runOne(command, options);
    if (outcome.code !== 0 || outcome.timedOut) {
      return { ok: false, error: describe(command, outcome, options.timeoutMs) };
    }
  }
  return { ok: true };
}
