// Fetches a release file of this agent's flavor from the server and installs it as
// versions/<version>/, checked first: nothing lands under its final name unless its size and
// SHA-256 are the manifest's, so a bad download leaves the installation as it was.

import { AgentReleaseListing, type AgentFlavor } from '@palisade/contract';
import { createHash } from 'node:crypto';
import { chmod, mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { syncDir } from '../fs/atomic.js';
import { PROGRAM_FILE, VERSION_NAME, versionDir, type InstallLayout } from './layout.js';

/** A step of an upgrade that failed; its message is what the console shows. */
export class UpgradeError extends Error {
  override name = 'UpgradeError';
}

const downloadUrl = (server: string) =>
  new URL('api/v1/agent/download/', server.endsWith('/') ? server : `${server}/`);

export async function fetchListing(
  server: string,
  signal?: AbortSignal,
): Promise<AgentReleaseListing> {
  const response = await fetch(downloadUrl(server), { signal });
  if (!response.ok) {
    throw new UpgradeError(`the server's agent release: HTTP ${response.status}`);
  }
  const parsed = AgentReleaseListing.safeParse(await response.json());
  // The version becomes a folder name: nothing but a plain version is taken.
  if (!parsed.success || !VERSION_NAME.test(parsed.data.version)) {
    throw new UpgradeError("the server's agent release manifest is malformed");
  }
  return parsed.data;
}

/**
 * Downloads the flavor's file of `listing` to versions/<version>.partial/, checks it, and renames
 * the folder to versions/<version>/ (replacing a leftover of an earlier attempt).
 */
export async function installVersion(options: {
  server: string;
  layout: InstallLayout;
  listing: AgentReleaseListing;
  flavor: AgentFlavor;
  signal?: AbortSignal;
}): Promise<string> {
  const { layout, listing, flavor } = options;
  const file = listing.files.find((candidate) => candidate.kind === flavor);
  if (!file) throw new UpgradeError(`the server's release ${listing.version} has no ${flavor}`);
  const target = versionDir(layout, listing.version);
  const partial = `${target}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  try {
    const program = path.join(partial, PROGRAM_FILE[flavor]);
    const url = new URL(file.url, downloadUrl(options.server));
    const { size, sha256 } = await download(url, program, options.signal);
    if (size !== file.size || sha256 !== file.sha256) {
      throw new UpgradeError(
        `${file.name} ${listing.version} failed its check: ${size} bytes, sha256 ${sha256}; ` +
          `the manifest says ${file.size} bytes, sha256 ${file.sha256}`,
      );
    }
    if (flavor === 'executable') await chmod(program, 0o755);
    await rm(target, { recursive: true, force: true });
    await rename(partial, target);
    await syncDir(layout.versionsDir);
    return target;
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
}

/** Streams `url` into `file` (flushed to disk); its size and SHA-256. */
async function download(
  url: URL,
  file: string,
  signal?: AbortSignal,
): Promise<{ size: number; sha256: string }> {
  const response = await fetch(url, { signal });
  if (!response.ok || !response.body) {
    throw new UpgradeError(`downloading ${url.pathname}: HTTP ${response.status}`);
  }
  const hash = createHash('sha256');
  let size = 0;
  const handle = await open(file, 'w', 0o644);
  try {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      size += chunk.byteLength;
      await handle.write(chunk);
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
  return { size, sha256: hash.digest('hex') };
}
