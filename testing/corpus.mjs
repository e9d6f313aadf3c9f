// Where the shared real-world corpus is: the one setting PALISADE_CORPUS (default
// ../shared/corpus; a relative value is read from the repository root). Tests, benchmarks and
// browser tests that need it ask here, and when it is absent they skip with one line naming the
// missing folder instead of failing on a missing file.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The corpus folder: PALISADE_CORPUS, resolved against the repository root. */
export const CORPUS_ROOT = path.resolve(
  REPO_ROOT,
  process.env.PALISADE_CORPUS || path.join('..', 'shared', 'corpus'),
);

/** Carried by the name of every test or group of tests that needs the corpus. */
export const NEEDS_CORPUS = '(needs the shared corpus)';

/** A path inside the corpus. */
export function corpusPath(...parts) {
  return path.join(CORPUS_ROOT, ...parts);
}

/** The first of the corpus folder and the named parts of it that is missing, or null. */
export function missingCorpusPart(...parts) {
  if (!existsSync(CORPUS_ROOT)) return CORPUS_ROOT;
  for (const part of parts) {
    const full = corpusPath(part);
    if (!existsSync(full)) return full;
  }
  return null;
}

/** Whether the corpus holds every named part (relative paths), saying nothing either way. */
export function corpusPresent(...parts) {
  return missingCorpusPart(...parts) === null;
}

const told = new Set();

/**
 * Whether the tests that need the corpus (and the named parts of it) can run. When they cannot,
 * prints once (per test file, per process elsewhere) the line that says why.
 */
export function corpusForTests(...parts) {
  const missing = missingCorpusPart(...parts);
  if (missing === null) return true;
  const line = `corpus tests skipped: ${missing} not found (set PALISADE_CORPUS)`;
  if (!told.has(line)) {
    told.add(line);
    console.log(line);
  }
  return false;
}
