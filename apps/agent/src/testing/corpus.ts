// The shared corpus's eve.json files (PALISADE_CORPUS, by default ../shared/corpus beside the
// repository), as the lines Suricata would write: NDJSON files line by line, pretty-printed JSON
// arrays one element per line. Test code only; the files are read in place, never copied. Without
// the corpus, the tests that only need realistic events get the project's generated sample.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CORPUS_ROOT, REPO_ROOT, corpusPresent } from '../../../../testing/corpus.mjs';
import { sampleEveEvents, sampleRuleFiles } from '../../../../testing/samples.mjs';

export const repoRoot = REPO_ROOT;
export const corpusRoot = CORPUS_ROOT;

export interface EveCorpusFile {
  name: string;
  lines: string[];
}

/** The corpus's eve.json files; without the corpus, one generated file of 2400 events. */
export function loadEveCorpus(): EveCorpusFile[] {
  const dir = path.join(corpusRoot, 'eve');
  if (!corpusPresent('eve')) {
    const events = sampleEveEvents({ count: 2400, seed: 7 });
    return [{ name: 'sample-eve.json', lines: events.map((event) => JSON.stringify(event)) }];
  }
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

/**
 * A rules file of the corpus (for simulated alerts naming real signatures); without the corpus,
 * the project's sample rules.
 */
export function corpusRulesFile(relative: string): string {
  if (!corpusPresent(path.join('rules', relative))) {
    return sampleRuleFiles()
      .map((file) => file.text)
      .join('\n');
  }
  return readFileSync(path.join(corpusRoot, 'rules', relative), 'utf8');
}
