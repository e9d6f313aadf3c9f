// Agreement with the reference parser (suricata-update 1.2.7) over the whole shared corpus:
// every rule file of the corpus's rules/ (tarball members included), each rule's fields
// compared with the reference's record for the same file and line. Differences on purpose are
// decided and explained in testing/deliberate.ts; anything else fails here, listed by file,
// line, sid and field.

import { readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatRule, parseRulesFile, ruleOptions } from './index.js';
import { compareWithOracle, comparableFields } from './testing/agreement.js';
import type { AgreementReport } from './testing/agreement.js';
import { NEEDS_CORPUS, corpusForTests } from '../../../testing/corpus.mjs';
import { corpusRoot, loadCorpusRuleFiles, loadOracle } from './testing/corpus.js';
import type { CorpusFile, Oracle } from './testing/corpus.js';

/** Every test here is about the corpus: without it, each is skipped and one line says why. */
const present = corpusForTests('rules', 'oracle');

let files: CorpusFile[] = [];
let oracle: Oracle;
let report: AgreementReport;

beforeAll(() => {
  if (!present) return;
  files = loadCorpusRuleFiles();
  oracle = loadOracle(files);
  report = compareWithOracle(files, oracle);
  const reasons = new Map<string, number>();
  for (const { reason } of report.deliberate) {
    const kind = reason.replace(/'[^']*'/g, '…');
    reasons.set(kind, (reasons.get(kind) ?? 0) + 1);
  }
  console.log(
    `corpus: ${report.files} files, ${report.rulesParsed} rules parsed, ${report.rulesCompared} ` +
      `compared with the reference over ${report.fieldsCompared} fields: ` +
      `${report.disagreements.length} disagreements, ${report.deliberate.length} deliberate ` +
      `differences, ${report.unchecked.length} unchecked, ${report.bothRefuse} lines both refuse`,
  );
  for (const [kind, count] of reasons) console.log(`  deliberate ×${count}: ${kind}`);
}, 120_000);

// Whole-corpus passes: generous limits for a loaded CI machine (tests never assert on time).
const HEAVY = { timeout: 60_000 };

describe.runIf(present)(`corpus agreement with suricata-update 1.2.7 ${NEEDS_CORPUS}`, () => {
  it('reads every rule file, tarball members included', () => {
    expect(files.length).toBeGreaterThan(0);
    // Every archive of the corpus gave its rule files.
    const read = new Set(files.map((file) => file.name.split('!')[0]));
    const archives = readdirSync(path.join(corpusRoot, 'rules'), { recursive: true })
      .map((name) => `rules/${String(name).split(path.sep).join('/')}`)
      .filter((name) => /\.(tar\.gz|tgz|tar|zip)$/.test(name));
    expect(archives.filter((name) => !read.has(name))).toEqual([]);
    expect(oracle.rules.size).toBeGreaterThan(0);
    // Every file the reference reported on is one we read, so all its records get compared.
    const names = new Set(files.map((file) => file.name));
    expect([...oracle.files].filter((name) => !names.has(name))).toEqual([]);
  });

  it('agrees field by field on every rule the reference parsed', () => {
    const lines = report.disagreements.map(
      (d) =>
        `${d.file}:${d.line} sid ${d.sid ?? '?'} ${d.field}: ours ${JSON.stringify(d.ours)}, ` +
        `reference ${JSON.stringify(d.reference)}`,
    );
    expect(lines).toEqual([]);
    expect(report.rulesCompared).toBeGreaterThan(0);
  });

  it('explains only what differs: no explanation fits a rule both parse alike', () => {
    expect(report.overbroad.map((o) => `${o.file}:${o.line} ${o.reason}`)).toEqual([]);
  });

  it('explains every rule the reference refused and we parse', () => {
    for (const { reason } of report.deliberate) expect(reason.length).toBeGreaterThan(0);
    expect(report.unchecked.every((u) => u.file.includes('!'))).toBe(true);
  });

  it('reports a planted disagreement (the comparison is not vacuous)', () => {
    const file = files.find((f) => (oracle.byFile.get(f.name)?.length ?? 0) > 0);
    expect(file).toBeDefined();
    if (file === undefined) return;
    const records = oracle.byFile.get(file.name) ?? [];
    const [first] = records;
    expect(first).toBeDefined();
    if (first === undefined) return;
    const rule = parseRulesFile(file.text).rules.find((r) => r.line === first.line);
    expect(rule).toBeDefined();
    if (rule === undefined) return;
    const planted = { ...first, sid: first.sid + 1, msg: `${first.msg}!` };
    const differing = comparableFields(rule, planted)
      .filter(([, ours, theirs]) => JSON.stringify(ours) !== JSON.stringify(theirs))
      .map(([field]) => field);
    expect(differing).toEqual(['msg', 'sid']);
  });
});

/** [start, end) of every physical line: \n, \r\n or a lone \r ends one; a BOM is not text. */
function physicalLines(text: string): Array<{ start: number; end: number }> {
  const lines: Array<{ start: number; end: number }> = [];
  let start = text.startsWith('\ufeff') ? 1 : 0;
  for (const match of text.matchAll(/\r\n|\r|\n/g)) {
    lines.push({ start, end: match.index });
    start = match.index + match[0].length;
  }
  lines.push({ start, end: text.length });
  return lines;
}

describe.runIf(present)(`corpus round trip ${NEEDS_CORPUS}`, () => {
  it('gives back every rule of every file exactly: format(parse(x)) === x', HEAVY, () => {
    const mismatches: string[] = [];
    for (const file of files) {
      const lines = physicalLines(file.text);
      for (const rule of parseRulesFile(file.text, { fileName: file.name }).rules) {
        const count = rule.text.split(/\r\n|\r|\n/).length;
        const first = lines[rule.line - 1];
        const last = lines[rule.line - 2 + count];
        const original = first && last ? file.text.slice(first.start, last.end) : undefined;
        if (formatRule(rule) !== original) mismatches.push(`${file.name}:${rule.line}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('re-parses a rule with its action and state changed to the changed values', HEAVY, () => {
    const mismatches: string[] = [];
    for (const file of files) {
      for (const rule of parseRulesFile(file.text).rules) {
        const changed = { ...rule, enabled: !rule.enabled, action: 'drop' };
        const text = formatRule(changed);
        const again = parseRulesFile(text).rules;
        const [first] = again;
        if (
          again.length !== 1 ||
          first === undefined ||
          first.enabled !== changed.enabled ||
          first.action !== 'drop' ||
          first.sid !== rule.sid ||
          JSON.stringify(ruleOptions(first)) !== JSON.stringify(ruleOptions(rule))
        ) {
          mismatches.push(`${file.name}:${rule.line}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });
});
