// Durable file writes: temporary file beside the target, fsync, rename, fsync the folder.
// A reader sees the old content or the new one, never a torn file, even after a power cut.

import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';

let fsyncEnabled = true;

/**
 * Turns flushing to disk off for this process: `fleet` runs hundreds of simulated devices whose
 * files need not survive a power cut, and hundreds of fsyncs per change would be the bottleneck.
 */
export function setFsync(enabled: boolean): void {
  fsyncEnabled = enabled;
}

/** A temporary name in the same folder (same file system, so rename is atomic). */
export function tempPathFor(target: string): string {
  const dir = path.dirname(target);
  return path.join(dir, `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * Writes `data` to `file` and flushes it to disk; does not rename. With `mode` the file has
 * exactly that mode (whatever the umask) before a byte is written.
 */
export async function writeDurable(
  file: string,
  data: string | Uint8Array,
  mode?: number,
): Promise<void> {
  const handle = await open(file, 'w', mode ?? 0o640);
  try {
    if (mode !== undefined) await handle.chmod(mode);
    await handle.writeFile(data);
    if (fsyncEnabled) await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes a folder's entries (the renames in it) to disk. Best effort where unsupported. */
export async function syncDir(dir: string): Promise<void> {
  if (!fsyncEnabled) return;
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a directory; the rename is still atomic.
  } finally {
    await handle?.close();
  }
}

export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array,
  options: { mode?: number } = {},
): Promise<void> {
  const temp = tempPathFor(target);
  try {
    await writeDurable(temp, data, options.mode);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDir(path.dirname(target));
}

export async function writeJsonAtomic(target: string, value: unknown): Promise<void> {
  await writeFileAtomic(target, `${JSON.stringify(value)}\n`);
}

/** The parsed JSON of `file`, or `undefined` when it does not exist. */
export async function readJsonIfExists(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    throw error;
  }
  return JSON.parse(text) as unknown;
}

export function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}
