// Test helpers that drive the real nft and ip programs. Every rendered script a test produces
// goes through `nft -c -f`; a missing nft fails the test (scripts/ensure-system-deps.sh installs
// it), it never skips.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IP, NFT, deleteNamespaces } from '../../../../testing/netns.mjs';

export {
  IP,
  NFT,
  addNamespace,
  deleteNamespaces,
  inNs,
  joinNamespaces,
  netnsUnavailable,
  run,
} from '../../../../testing/netns.mjs';

const scratch = mkdtempSync(join(tmpdir(), 'palisade-firewall-'));
let counter = 0;

export function writeScratch(name: string, content: string): string {
  const file = join(scratch, `${process.pid}-${++counter}-${name}`);
  writeFileSync(file, content);
  return file;
}

export function removeScratch(): void {
  rmSync(scratch, { recursive: true, force: true });
}

/** `nft -c -f`: null when nft accepts the script, else its complaint. */
export function nftCheck(script: string): string | null {
  const file = writeScratch('check.nft', script);
  const result = spawnSync(NFT, ['-c', '-f', file], { encoding: 'utf8', timeout: 60_000 });
  if (result.error) throw new Error(`cannot run ${NFT}: ${result.error.message}`);
  return result.status === 0 ? null : `${result.stderr}${result.stdout}`.trim() || 'nft failed';
}

/**
 * Removes namespaces a killed earlier run left behind: only this suite's own names
 * (`palisade-<kind>-<pid>`) whose process is gone.
 */
export function reapStaleNamespaces(): void {
  const listed = spawnSync(IP, ['netns', 'list'], { encoding: 'utf8', timeout: 10_000 });
  if (listed.status !== 0) return;
  for (const line of listed.stdout.split('\n')) {
    const match = /^(palisade-(?:apply|c|r|s|bench)-(\d+))\b/.exec(line);
    if (match === null) continue;
    const [, name = '', pid = ''] = match;
    if (Number(pid) === process.pid || alive(Number(pid))) continue;
    deleteNamespaces([name]);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
