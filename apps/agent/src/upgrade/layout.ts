// Where an installed agent keeps its versions (install.sh's layout, docs/operations.md) and the
// two files an upgrade leaves in the state folder for the next start and for upgrade-guard.

import type { AgentFlavor } from '@palisade/contract';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { readJsonIfExists, writeJsonAtomic } from '../fs/atomic.js';

/** The file of a flavor inside versions/<version>/ (the launcher runs it from current/). */
export const PROGRAM_FILE: Record<AgentFlavor, string> = {
  executable: 'palisade-agent',
  'node-module': 'palisade-agent.mjs',
};

/** A version as a folder name: what a manifest may hold that is safe in a path. */
export const VERSION_NAME = /^[0-9A-Za-z][0-9A-Za-z.+-]{0,49}$/;

export interface InstallLayout {
  installDir: string;
  versionsDir: string;
  /** Symlink to versions/<version>: the version the launcher starts. */
  current: string;
}

export function installLayout(installDir: string): InstallLayout {
  return {
    installDir,
    versionsDir: path.join(installDir, 'versions'),
    current: path.join(installDir, 'current'),
  };
}

export const versionDir = (layout: InstallLayout, version: string) =>
  path.join(layout.versionsDir, version);

/**
 * `<state-dir>/upgrade.json`, written just before `current` is switched: the new version must
 * report in before `deadline` (Unix seconds), else upgrade-guard points `current` back to `from`.
 * Written on one line with plain values, so that the guard (POSIX sh, no JSON tool) can read it.
 */
export const UpgradeInProgress = z.object({
  id: z.number().int().positive(),
  from: z.string().regex(VERSION_NAME),
  to: z.string().regex(VERSION_NAME),
  deadline: z.number().int(),
});
export type UpgradeInProgress = z.infer<typeof UpgradeInProgress>;

/** `<state-dir>/upgrade-failed.json`, written by upgrade-guard when it restored `from`. */
export const UpgradeFailed = z.object({
  id: z.number().int().positive(),
  from: z.string(),
  to: z.string(),
  reason: z.string(),
});
export type UpgradeFailed = z.infer<typeof UpgradeFailed>;

export const upgradeFiles = (stateDir: string) => ({
  inProgress: path.join(stateDir, 'upgrade.json'),
  failed: path.join(stateDir, 'upgrade-failed.json'),
});

/** The file's content when it holds what `schema` says; a file that does not is removed. */
export async function readStateFile<S extends z.ZodType>(
  file: string,
  schema: S,
): Promise<z.infer<S> | undefined> {
  let raw: unknown;
  try {
    raw = await readJsonIfExists(file);
  } catch {
    raw = null; // not JSON: unusable, like a file of the wrong shape
  }
  if (raw === undefined) return undefined;
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  await rm(file, { force: true });
  return undefined;
}

export const writeStateFile = (file: string, value: UpgradeInProgress | UpgradeFailed) =>
  writeJsonAtomic(file, value);
