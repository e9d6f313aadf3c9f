// The shared corpus's eve.json files (../shared/corpus/eve beside the repository), as the lines
// Suricata would write: NDJSON files line by line, pretty-printed JSON arrays one element per
// line. Test code only; the files are read in place, never copied.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '../../../..');
export const corpusRoot = path.resolve(repoRoot, '../shared/corpus');

export interface EveCorpusFile {
  name: string;
  lines: string[];
}

export function loadEveCorpus(): EveCorpusFile[] {
  const dir = path.join(corpusRoot, 'eve');
  if (!existsSync(dir)) throw new Error(`the shared corpus is missing at ${dir}`);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const text = readFileSync(path.join(dir, name), 'utf8');
      const trimmed = text.trimStart();
      const lines = trimmed.startsWith('[')
        ? (JSON.parse(trimmed) as unknown[]).map((event) => JSON.stringify(event))
        : text.split('\n').filter((line) => line.trim() !== '');
      return { name, lines };
    });
}

/** Rules files of the corpus (for simulated alerts naming real signatures). */
export function corpusRulesFile(relative: string): string {
  return readFileSync(path.join(corpusRoot, 'rules', relative), 'utf8');
}
