import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NEEDS_CORPUS, corpusForTests } from '../../../testing/corpus.mjs';
import { parseClassificationConfig, parseRulesFile } from './index.js';
import { corpusRoot, loadCorpusRuleFiles } from './testing/corpus.js';

const CONFIG = path.join(corpusRoot, 'config/suricata/classification.config');
const present = corpusForTests('config/suricata/classification.config', 'rules/suricata');

describe.runIf(present)(`the corpus' classification.config ${NEEDS_CORPUS}`, () => {
  it("reads Suricata's classification.config", () => {
    const text = readFileSync(CONFIG, 'utf8');
    const { classifications, diagnostics } = parseClassificationConfig(text, {
      fileName: 'classification.config',
    });
    expect(diagnostics).toEqual([]);
    const lines = text.split('\n').filter((line) => line.startsWith('config classification'));
    expect(classifications.size).toBe(lines.length);
    expect(classifications.get('not-suspicious')).toEqual({
      description: 'Not Suspicious Traffic',
      priority: 3,
    });
    // "Potentially Bad Traffic, 2": blanks around the priority
    expect(classifications.get('bad-unknown')).toEqual({
      description: 'Potentially Bad Traffic',
      priority: 2,
    });
  });

  // Reads the whole corpus: a generous limit for a loaded CI machine.
  it("knows every classtype used by Suricata's own rules", { timeout: 60_000 }, () => {
    const text = readFileSync(CONFIG, 'utf8');
    const { classifications } = parseClassificationConfig(text);
    const used = new Set<string>();
    for (const file of loadCorpusRuleFiles().filter((f) => f.name.startsWith('rules/suricata/'))) {
      for (const rule of parseRulesFile(file.text).rules) {
        if (rule.classtype !== null) used.add(rule.classtype);
      }
    }
    expect([...used].filter((name) => !classifications.has(name))).toEqual([]);
  });
});

describe('parseClassificationConfig', () => {
  it('keeps commas inside the description and reads the priority after the last one', () => {
    const { classifications } = parseClassificationConfig(
      'config classification:web-app,Web, mail and other app attacks,1\n',
    );
    expect(classifications.get('web-app')).toEqual({
      description: 'Web, mail and other app attacks',
      priority: 1,
    });
  });

  it('reports bad lines with line and column, and duplicates as warnings', () => {
    const text = [
      '# comment',
      '',
      'config classification: a,First,1',
      'config classifcation: b,Typo,2',
      'config classification: c,No priority',
      'config classification: d,Bad priority,high',
      'config classification: a,Again,3',
      '  config classification: ,Nameless,1',
    ].join('\r\n');
    const { classifications, diagnostics } = parseClassificationConfig(text, {
      fileName: 'c.config',
    });
    expect(classifications.get('a')).toEqual({ description: 'Again', priority: 3 });
    expect(diagnostics.map((d) => [d.severity, d.code, d.line, d.column])).toEqual([
      ['error', 'bad-classification', 4, 8],
      ['error', 'bad-classification', 5, 37],
      ['error', 'bad-classification', 6, 39],
      ['warning', 'duplicate-classification', 7, 1],
      ['error', 'bad-classification', 8, 26],
    ]);
    expect(diagnostics.every((d) => d.fileName === 'c.config')).toBe(true);
  });
});
