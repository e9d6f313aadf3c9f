// `npm run bench`: runs every benchmark in bench/ (one file per area) and prints its figures;
// names after `--` pick some (`npm run bench -- agent` runs bench/agent.bench.ts).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const wanted = process.argv.slice(2);
const files = readdirSync('bench')
  .filter((name) => /\.bench\.(ts|mjs)$/.test(name))
  .filter((name) => wanted.length === 0 || wanted.includes(name.replace(/\.bench\.(ts|mjs)$/, '')))
  .sort();
if (files.length === 0) {
  console.error(`no benchmark named ${wanted.join(', ')}`);
  process.exit(1);
}
// The benchmarks compare with real programs (nft, suricata-update): install them if missing.
spawnSync('bash', ['scripts/ensure-system-deps.sh'], { stdio: 'inherit' });
// Node runs as `npm start` runs the server: with a 64 MB young generation (see
// docs/operations.md). With the default one, which V8 sizes by what it has seen, the same
// pass of the rule parser took 45 ms in one process and 58 ms in the next.
const env = {
  ...process.env,
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-semi-space-size=64`.trim(),
};
let failed = 0;
for (const file of files) {
  console.log(`\n=== bench/${file} ===`);
  const { status } = spawnSync('npx', ['tsx', '--conditions=palisade-source', `bench/${file}`], {
    stdio: 'inherit',
    env,
  });
  if (status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
