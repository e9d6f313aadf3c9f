// `npm test`: every check, in the order a failure is cheapest to find.
// Type check, lint, unit + server suites (PGlite and PostgreSQL), build, the built agent
// release (vitest.release.config.ts), a first start as a new user makes it, browser end-to-end.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const steps = [
  ['system programs (chromium, nft)', 'bash', ['scripts/ensure-system-deps.sh']],
  ['type check', 'npm', ['run', 'typecheck']],
  ['lint', 'npm', ['run', 'lint']],
  ['format', 'npm', ['run', 'format:check']],
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

const results = [];
for (const [name, command, args] of steps) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const { status } = spawnSync(command, args, { stdio: 'inherit' });
  results.push({ name, ok: status === 0, seconds: (Date.now() - started) / 1000 });
  if (status !== 0) break;
}

console.log('\n=== summary ===');
for (const { name, ok, seconds } of results) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name} (${seconds.toFixed(1)} s)`);
}
const failed = results.filter((r) => !r.ok).length;
console.log(`checks: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 && results.length === steps.length ? 0 : 1);
