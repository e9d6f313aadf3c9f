// Rule parser throughput over every rule file of the shared corpus (tarball members included),
// beside references measured in the same run: reading + gunzipping the corpus, a naive pass
// that splits each file into lines and JSON-encodes every line, and, when the system Python has
// it (Debian package suricata-update), suricata-update's own parser on the same texts. Prints
// figures and ratios; asserts nothing. The parse pass reads every field the server's import
// reads of each rule (see touchImportedFields).

import { spawnSync } from 'node:child_process';
import v8 from 'node:v8';
import vm from 'node:vm';
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseRulesFile, type Rule } from '@palisade/rules';
import {
  corpusAvailable,
  corpusRoot,
  loadCorpusRuleFiles,
} from '../packages/rules/src/testing/corpus.js';

const MIN_RUNS = 7;
const MIN_SECONDS = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

// Each figure starts from a collected heap: the garbage of one measurement (8 MB of corpus
// text per pass of the read) must not be collected on the next one's time.
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

/**
 * Median (and best) seconds of `run` over at least MIN_RUNS runs and MIN_SECONDS seconds, after
 * warm-up.
 */
function measure(run: () => number): { seconds: number; best: number; result: number } {
  collectGarbage();
  let result = run();
  run();
  const times: number[] = [];
  const started = performance.now();
  while (times.length < MIN_RUNS || performance.now() - started < MIN_SECONDS * 1000) {
    const t0 = performance.now();
    result = run();
    times.push((performance.now() - t0) / 1000);
  }
  return { seconds: median(times), best: Math.min(...times), result };
}

function recordedReferenceRate(): { rules: number; seconds: number } {
  const dir = path.join(corpusRoot, 'oracle');
  let rules = 0;
  let seconds = 0;
  for (const set of ['snort2-community', 'snort3-community', 'suricata-rules', 'suricata-verify']) {
    const summary = JSON.parse(readFileSync(path.join(dir, `${set}.summary.json`), 'utf8')) as {
      parsed: number;
      seconds_in_parse_loop: number;
    };
    rules += summary.parsed;
    seconds += summary.seconds_in_parse_loop;
  }
  return { rules, seconds };
}

// suricata.update.rule over the same texts (JSON on stdin): median and best of three passes.
const SURICATA_UPDATE = `
import io, json, logging, statistics, sys, time
from suricata.update import rule
logging.disable(logging.CRITICAL)
texts = json.load(sys.stdin)
times = []
for _ in range(3):
    started = time.perf_counter()
    count = sum(len(rule.parse_fileobj(io.StringIO(text))) for text in texts)
    times.append(time.perf_counter() - started)
print(count, statistics.median(times), min(times))
`;

/**
 * The first Python that can import suricata.update: `python3` on the PATH, then the system one
 * (a pyenv or virtualenv `python3` earlier on the PATH does not see Debian's package).
 */
function pythonWithSuricataUpdate(): string | null {
  for (const python of ['python3', '/usr/bin/python3']) {
    const probe = spawnSync(python, ['-c', 'import suricata.update.rule'], { encoding: 'utf8' });
    if (!probe.error && probe.status === 0) return python;
  }
  return null;
}

function suricataUpdateRun(
  texts: string[],
): { rules: number; seconds: number; best: number } | string {
  const python = pythonWithSuricataUpdate();
  if (python === null) {
    return 'not run: the system Python has no suricata.update (apt install suricata-update)';
  }
  const run = spawnSync(python, ['-c', SURICATA_UPDATE], {
    input: JSON.stringify(texts),
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (run.error) return `not run: ${run.error.message}`;
  if (run.status !== 0) return `failed: ${run.stderr.trim().split('\n').pop() ?? python}`;
  const [rules = NaN, seconds = NaN, best = NaN] = run.stdout.trim().split(' ').map(Number);
  return { rules, seconds, best };
}

if (!corpusAvailable()) {
  console.error(`rules bench: the shared corpus is missing at ${corpusRoot}`);
  process.exit(1);
}

const files = loadCorpusRuleFiles();
const characters = files.reduce((sum, file) => sum + file.text.length, 0);

/**
 * What the server's import (apps/server/src/modules/rules: `toRecord`) reads of a rule: every
 * field but the option list, which a `Rule` does not carry (`ruleOptions(rule)` reads it from
 * the text on demand; the import never asks). The fields are plain data filled by the parse, so
 * this only proves that they are there; it is summed into the result so it cannot be skipped.
 */
function touchImportedFields(rule: Rule): number {
  return (
    rule.gid +
    rule.sid +
    (rule.rev ?? 0) +
    rule.action.length +
    (rule.protocol?.length ?? 0) +
    (rule.source === null ? 0 : rule.source.address.length + rule.source.port.length) +
    (rule.direction?.length ?? 0) +
    (rule.destination === null
      ? 0
      : rule.destination.address.length + rule.destination.port.length) +
    (rule.msg?.length ?? 0) +
    (rule.classtype?.length ?? 0) +
    (rule.priority ?? 0) +
    rule.metadata.length +
    rule.references.length +
    rule.flowbits.length +
    (rule.enabled ? 1 : 0) +
    rule.text.length
  );
}

let touched = 0;
const parse = measure(() => {
  let rules = 0;
  for (const file of files) {
    const parsed = parseRulesFile(file.text, { fileName: file.name });
    for (const rule of parsed.rules) touched += touchImportedFields(rule);
    rules += parsed.rules.length;
  }
  return rules;
});
const naive = measure(() => {
  let size = 0;
  for (const file of files) {
    for (const line of file.text.split('\n')) size += JSON.stringify(line).length;
  }
  return size;
});
const readSeconds = measure(() => loadCorpusRuleFiles().length).seconds;

const rules = parse.result;
const rate = rules / parse.seconds;
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
console.log(
  `corpus: ${files.length} rule files, ${fmt(rules)} rules, ${(characters / 1e6).toFixed(1)} M characters`,
);
if (touched === 0) console.log('no rule fields read');
console.log(`read + gunzip corpus:                     ${(readSeconds * 1000).toFixed(0)} ms`);
console.log(
  `parseRulesFile:                           ${fmt(rate)} rules/s ` +
    `(median ${(parse.seconds * 1000).toFixed(1)} ms per pass, ${(characters / parse.seconds / 1e6).toFixed(0)} M chars/s; ` +
    `best ${(parse.best * 1000).toFixed(1)} ms, ${fmt(rules / parse.best)} rules/s)`,
);
console.log(
  `naive split('\\n') + JSON.stringify/line:  ${(naive.seconds * 1000).toFixed(1)} ms per pass`,
);
console.log(
  `ratio parse / naive pass:                 ${(parse.seconds / naive.seconds).toFixed(2)}× the time`,
);
console.log(
  `ratio parse / read + gunzip:              ${(parse.seconds / readSeconds).toFixed(2)}× the time`,
);
const live = suricataUpdateRun(files.map((file) => file.text));
if (typeof live === 'string') {
  console.log(`suricata-update, this run:                ${live}`);
} else {
  // Medians against medians (the target's figure), and best pass against best pass: this
  // machine's speed moves by a third between runs, for both parsers.
  const liveRate = live.rules / live.seconds;
  const liveBest = live.rules / live.best;
  console.log(
    `suricata-update, this run:                ${fmt(liveRate)} rules/s (${fmt(live.rules)} rules) ` +
      `→ ours ${(rate / liveRate).toFixed(1)}×; best pass ${fmt(liveBest)} rules/s ` +
      `→ ours ${(rules / parse.best / liveBest).toFixed(1)}×`,
  );
}
const recorded = recordedReferenceRate();
const referenceRate = recorded.rules / recorded.seconds;
console.log(
  `suricata-update 1.2.7 (recorded in oracle/*.summary.json, not this run): ${fmt(referenceRate)} rules/s ` +
    `→ ours ${(rate / referenceRate).toFixed(1)}×`,
);
