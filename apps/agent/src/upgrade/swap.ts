// The `current` symlink names the version the launcher starts. It is switched atomically: a new
// link is made beside it and renamed over it, so at every moment `current` names one whole
// version (never none, never a half-written one), whatever happens in between.

import { randomBytes } from 'node:crypto';
import { readdir, readlink, rename, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { isErrno, syncDir } from '../fs/atomic.js';
import type { InstallLayout } from './layout.js';

/** The version `current` points at, or null when there is no such link. */
export async function currentVersion(layout: InstallLayout): Promise<string | null> {
  try {
    return path.basename(await readlink(layout.current));
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'EINVAL')) return null;
    throw error;
  }
}

/** Points `current` at versions/<version> (relative, so the folder may be moved or chrooted). */
export async function switchCurrent(layout: InstallLayout, version: string): Promise<void> {
  const temp = path.join(layout.installDir, `.current.${randomBytes(6).toString('hex')}`);
  await symlink(path.join('versions', version), temp);
  try {
    await rename(temp, layout.current);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDir(layout.installDir);
}

/** Removes every version folder (and leftover download) but those named in `keep`. */
export async function pruneVersions(layout: InstallLayout, keep: string[]): Promise<string[]> {
  const removed: string[] = [];
  for (const entry of await readdir(layout.versionsDir)) {
    if (keep.includes(entry)) continue;
    await rm(path.join(layout.versionsDir, entry), { recursive: true, force: true });
    removed.push(entry);
  }
  return removed;
}
