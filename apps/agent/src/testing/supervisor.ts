// A stand-in for systemd running the agent's unit as install.sh writes it: before each start
// ExecStartPre (upgrade-guard), then ExecStart (the launcher), started again `restartMs` after
// it exits whatever its exit code (Restart=always, StartLimitIntervalSec=0). Test code only.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';

export interface SupervisorOptions {
  /** ExecStartPre: run to its end before each start (its failure is logged, not fatal here). */
  pre: string[];
  /** ExecStart. */
  command: string[];
  logFile: string;
  restartMs?: number;
  env?: Record<string, string>;
}

export class Supervisor {
  /** Exit codes of the runs so far, in order (null: ended by a signal). */
  readonly exits: (number | null)[] = [];
  private child: ChildProcess | undefined;
  private stopped = false;
  private loop: Promise<void> = Promise.resolve();
  private readonly log: WriteStream;

  constructor(private readonly options: SupervisorOptions) {
    this.log = createWriteStream(options.logFile, { flags: 'a' });
  }

  start(): void {
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    const env = { ...process.env, ...this.options.env };
    while (!this.stopped) {
      const [pre = 'true', ...preArgs] = this.options.pre;
      const guard = spawnSync(pre, preArgs, { env, encoding: 'utf8' });
      this.log.write(`--- ExecStartPre exited ${guard.status}\n${guard.stderr}`);
      const [command = 'false', ...args] = this.options.command;
      const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
      this.child = child;
      child.stdout.pipe(this.log, { end: false });
      child.stderr.pipe(this.log, { end: false });
      const code = await new Promise<number | null>((resolve) =>
        child.once('exit', (exitCode) => resolve(exitCode)),
      );
      this.exits.push(code);
      this.log.write(`--- exited ${code}\n`);
      if (this.stopped) break;
      await new Promise((resolve) => setTimeout(resolve, this.options.restartMs ?? 300));
    }
  }

  /** systemctl stop: SIGTERM to the running agent, no restart. */
  async stop(): Promise<void> {
    this.stopped = true;
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const killer = setTimeout(() => child?.kill('SIGKILL'), 15_000);
    await this.loop;
    clearTimeout(killer);
    this.log.end();
  }
}
