// `npm test`: every check, in the order a failure is cheapest to find.
// Type check, lint and format together, unit + server suites (PGlite and PostgreSQL), build, the
// built agent release (vitest.release.config.ts), a first start as a new user makes it, browser
// end-to-end.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** A step: a name and the command that runs it; an array of steps runs them at once. */
const steps = [
  ['system programs (chromium, nft)', 'bash', ['scripts/ensure-system-deps.sh']],
  // Each is one thread: together they take the machine's two cores, about a minute less than
  // one after another. Their output is shown whole, each after the other, once all three end.
  [
    ['type check', 'npm', ['run', 'typecheck']],
    ['lint', 'npm', ['run', 'lint']],
    ['format', 'npm', ['run', 'format:check']],
  ],
  ['unit and server tests', 'npx', ['vitest', 'run']],
  ['build', 'npm', ['run', 'build']],
  ['agent release (built)', 'npx', ['vitest', 'run', '-c', 'vitest.release.config.ts']],
  ['first start as the README says', 'node', ['e2e/first-start.mjs']],
];
if (existsSync('e2e/playwright.config.ts')) {
  steps.push([
    'end-to-end (Chromium)',
    'npx',
    ['playwright', 'test', '-c', 'e2e/playwright.config.ts'],
  ]);
}

function runShown([name, command, args]) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const { status } = spawnSync(command, args, { stdio: 'inherit' });
  return { name, ok: status === 0, seconds: (Date.now() - started) / 1000 };
}

/** Runs the steps at once, each with its output kept; shows each whole, in order, at the end. */
async function runTogether(group) {
  const runs = group.map(
    ([name, command, args]) =>
      new Promise((resolve) => {
        const started = Date.now();
        const output = [];
        const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
        child.stdout.on('data', (chunk) => output.push(chunk));
        child.stderr.on('data', (chunk) => output.push(chunk));
        child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
        child.on('close', (status) =>
          resolve({ name, ok: status === 0, seconds: (Date.now() - started) / 1000, output }),
        );
      }),
  );
  console.log(`\n=== ${group.map(([name]) => name).join(', ')} (at once) ===`);
  const results = await Promise.all(runs);
  for (const { name, output } of results) {
    console.log(`\n=== ${name} ===`);
    process.stdout.write(Buffer.concat(output));
  }
  return results;
}

const results = [];
for (const step of steps) {
  const done = Array.isArray(step[0]) ? await runTogether(step) : [runShown(step)];
  results.push(...done);
  if (done.some((result) => !result.ok)) break;
}

console.log('\n=== summary ===');
for (const { name, ok, seconds } of results) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name} (${seconds.toFixed(1)} s)`);
}
const failed = results.filter((r) => !r.ok).length;
const expected = steps.flatMap((step) => (Array.isArray(step[0]) ? step : [step])).length;
console.log(`checks: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 && results.length === expected ? 0 : 1);
