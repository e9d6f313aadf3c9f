// `npm run bench`: runs every benchmark in bench/ (one file per area) and prints its figures.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const files = readdirSync('bench')
  .filter((name) => /\.bench\.(ts|mjs)$/.test(name))
  .sort();
// The benchmarks compare with real programs (nft, suricata-update): install them if missing.
spawnSync('bash', ['scripts/ensure-system-deps.sh'], { stdio: 'inherit' });
let failed = 0;
for (const file of files) {
  console.log(`\n=== bench/${file} ===`);
  const { status } = spawnSync('npx', ['tsx', '--conditions=palisade-source', `bench/${file}`], {
    stdio: 'inherit',
  });
  if (status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
