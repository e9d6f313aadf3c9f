import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  /** `http://127.0.0.1:<port>/` as the banner printed it. */
  url: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Set once the process exited (a crash included). */
  exit(): Exit | undefined;
  /** SIGTERM, then resolves with how the process exited. */
  stop(): Promise<Exit>;
}

/**
 * The real server process (`src/main.ts` as `npm start` runs it, from source), started with
 * env over the test's environment and resolved once its banner is out. A process is what a
 * crash can be seen in: an exit, where an in-process server would take the test runner down.
 */
export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
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
    let exit: Exit | undefined;
    const exited = new Promise<Exit>((done) => {
      child.on('exit', (code, signal) => {
        exit = { code, signal };
        clearTimeout(timer);
        reject(new Error(`server exited before it started (${code ?? signal}):\n${output}`));
        done(exit);
      });
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${output}`));
    }, 110_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /is running at (\S+)[\s\S]*\n\n/.exec(output)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      resolve({
        url,
        output: () => output,
        exit: () => exit,
        stop: () => {
          if (!exit) child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
  });
}
