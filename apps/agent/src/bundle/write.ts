// Writes a bundle's files into the output folder so that a whole bundle lands or none of it:
// every file is first written and flushed under a temporary name; only when all of them are on
// disk are they renamed over the live names, and the manifest (bundle.json, with the versions)
// is renamed last. A failure before the renames leaves the folder as it was. A crash during the
// renames leaves an old manifest, so the agent re-pulls and rewrites the bundle at start.

import { lstat, mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { isErrno, readJsonIfExists, syncDir, tempPathFor, writeDurable } from '../fs/atomic.js';
import { BUNDLE_FILES, type BundleFile } from './render.js';

export const BundleManifest = z.object({
  config_version: z.number().int(),
  policy_version: z.number().int(),
  etag: z.string().nullable(),
  files: z.array(z.string()),
  written_at: z.string(),
});
export type BundleManifest = z.infer<typeof BundleManifest>;

async function isDirectory(file: string): Promise<boolean> {
  try {
    return (await lstat(file)).isDirectory();
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return false;
    throw error;
  }
}

export async function writeBundleFiles(
  outputDir: string,
  files: BundleFile[],
  manifest: Omit<BundleManifest, 'files' | 'written_at'>,
): Promise<BundleManifest> {
  await mkdir(outputDir, { recursive: true });
  const full: BundleManifest = {
    ...manifest,
    files: files.filter((f) => f.content !== null).map((f) => f.name),
    written_at: new Date().toISOString(),
  };
  const staged: { temp: string; target: string }[] = [];
  const all = [
    ...files,
    { name: BUNDLE_FILES.manifest, content: `${JSON.stringify(full, null, 2)}\n` },
  ];
  try {
    for (const file of all) {
      const target = path.join(outputDir, file.name);
      if (await isDirectory(target)) {
        throw new Error(`cannot write ${target}: it is a directory`);
      }
      if (file.content === null) continue;
      const temp = tempPathFor(target);
      staged.push({ temp, target });
      await writeDurable(temp, file.content);
    }
  } catch (error) {
    await Promise.all(staged.map(({ temp }) => rm(temp, { force: true })));
    throw error;
  }
  // Data files first, manifest last: a crash in between leaves the old versions recorded.
  for (const { temp, target } of staged) await rename(temp, target);
  for (const file of files) {
    if (file.content === null) await rm(path.join(outputDir, file.name), { force: true });
  }
  await syncDir(outputDir);
  return full;
}

export async function readBundleManifest(outputDir: string): Promise<BundleManifest | undefined> {
  try {
    const value = await readJsonIfExists(path.join(outputDir, BUNDLE_FILES.manifest));
    const parsed = BundleManifest.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Temporary files left by a crash in the middle of a write. */
export async function removeStaleTemps(outputDir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(outputDir);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return;
    throw error;
  }
  await Promise.all(
    names
      .filter((n) => n.startsWith('.') && n.endsWith('.tmp'))
      .map((n) => rm(path.join(outputDir, n), { force: true })),
  );
}
