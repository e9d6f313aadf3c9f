// Idle memory of the server on the embedded database, started as `npm start` runs it (the built
// apps/server/dist/main.js, `--max-semi-space-size=64`, PGlite in a data folder on disk; run
// `npm run build` first). Each round starts it on a fresh folder (the first start, which
// creates the database) and again on the same folder (a restart), and a bare Node process as
// the reference, pinned to the same CPU in turn. Prints resident memory (VmRSS) a few seconds
// after each said it was ready, min/median/max, beside the issue 16 target (300 MB).
// Asserts nothing.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { rssKiB } from './lib/process-usage.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const SERVER = path.join(ROOT, 'apps/server/dist/main.js');
const ROUNDS = Number(process.env['MEMORY_BENCH_ROUNDS'] ?? 3);
const SETTLE_MS = 3000;
const TARGET_MB = 300;
const HAS_TASKSET = spawnSync('taskset', ['--version']).status === 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const residentMb = (pid: number) => rssKiB(pid) / 1024;

/** Starts `args` (pinned to cpu), waits for `ready` on stdout, settles, reads its RSS, stops it. */
async function idleRss(options: {
  args: string[];
  env?: Record<string, string>;
  ready: string;
  cpu: number;
}): Promise<number> {
  const command = HAS_TASKSET ? 'taskset' : process.execPath;
  const args = HAS_TASKSET
    ? ['-c', String(options.cpu), process.execPath, ...options.args]
    : options.args;
  const child: ChildProcess = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes(options.ready)) resolve();
      });
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
    });
    await sleep(SETTLE_MS);
    // taskset execs node, so the pid is the node process's.
    return residentMb(child.pid ?? 0);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

const serverArgs = ['--max-semi-space-size=64', SERVER];
const serverEnv = (dataDir: string): Record<string, string> => ({
  DATA_DIR: dataDir,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
});

const samples = { bare: [] as number[], first: [] as number[], restart: [] as number[] };
for (let round = 0; round < ROUNDS; round += 1) {
  const cpu = round % 2;
  samples.bare.push(
    await idleRss({
      args: ['-e', 'console.log("ready"); setInterval(() => {}, 1000)'],
      ready: 'ready',
      cpu,
    }),
  );
  const dataDir = await mkdtemp(path.join(tmpdir(), 'palisade-memory-bench-'));
  try {
    const ready = 'Palisade is running';
    samples.first.push(await idleRss({ args: serverArgs, env: serverEnv(dataDir), ready, cpu }));
    samples.restart.push(await idleRss({ args: serverArgs, env: serverEnv(dataDir), ready, cpu }));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const stats = (values: number[]) => {
  const s = sorted(values);
  return { min: s[0] ?? 0, median: s[Math.floor(s.length / 2)] ?? 0, max: s[s.length - 1] ?? 0 };
};
const mb = (value: number) => `${value.toFixed(0)} MB`;
const bare = stats(samples.bare);
console.log(
  `idle RSS over ${ROUNDS} starts, ${SETTLE_MS / 1000} s after ready${HAS_TASKSET ? ', pinned' : ''}`,
);
console.log(
  `  bare node (reference)       min ${mb(bare.min)}  median ${mb(bare.median)}  max ${mb(bare.max)}`,
);
for (const [label, values] of [
  ['server, first start', samples.first],
  ['server, restart', samples.restart],
] as const) {
  const { min, median, max } = stats(values);
  console.log(
    `  ${label.padEnd(28)}min ${mb(min)}  median ${mb(median)}  max ${mb(max)}` +
      `  | target < ${TARGET_MB} MB: ${median < TARGET_MB ? 'met' : 'NOT met'}` +
      ` (${(median / TARGET_MB).toFixed(2)}× target, ${(median / bare.median).toFixed(1)}× bare node)`,
  );
}
