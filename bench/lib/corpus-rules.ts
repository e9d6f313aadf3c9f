// The real rule sets the import and rule-source benches build their 32,000-rule archive from.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { formatRule, parseRulesFile } from '@palisade/rules';
import { CORPUS } from '../../apps/server/src/test/corpus.js';

/** What the benches need from the corpus (for `missingCorpusPart`). */
export const CORPUS_RULE_PARTS = [
  'rules/snort2-community/community.rules',
  'rules/suricata',
  'config/suricata/classification.config',
] as const;

const FILES = [
  'rules/snort2-community/community.rules',
  ...[
    'app-layer-events',
    'decoder-events',
    'dns-events',
    'http-events',
    'smtp-events',
    'stream-events',
    'tls-events',
  ].map((name) => `rules/suricata/${name}.rules`),
];

/** Every rule of those files, enabled, so that a policy built from them renders them all. */
export function corpusRuleTexts(): string[] {
  return FILES.flatMap((file) =>
    parseRulesFile(readFileSync(path.join(CORPUS, file), 'utf8')).rules.map((r) =>
      formatRule({ text: r.text, enabled: true, action: r.action }),
    ),
  );
}
