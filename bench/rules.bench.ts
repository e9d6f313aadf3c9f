// Rule parser throughput over every rule file of the shared corpus (tarball members included),
// beside references measured in the same run: reading + gunzipping the corpus, a naive pass
// that splits each file into lines and JSON-encodes every line, and, when the system Python has
// it (Debian package suricata-update), suricata-update's own parser on the same texts. Prints
// figures and ratios; asserts nothing. The parse pass reads every field the server's import
// reads of each rule (see touchImportedFields).
//
// The two parsers are compared on one core: the process (and so the Python it starts) is pinned
// to each CPU in turn, and each round measures both, one after the other. On a shared virtual
// machine one CPU can lose half its speed to a neighbour for minutes while the other does not:
// unpinned, a process stays on whichever it started on, and a run measured 9× or 13× by luck.

import { spawnSync } from 'node:child_process';
import v8 from 'node:v8';
import vm from 'node:vm';
import { performance } from 'node:perf_hooks';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseRulesFile, type Rule } from '@palisade/rules';
import { corpusRoot, loadCorpusRuleFiles } from '../packages/rules/src/testing/corpus.js';
import { missingCorpusPart } from '../testing/corpus.mjs';

const MIN_RUNS = 7;
/** Per measurement of our parser; each round also runs suricata-update's three passes. */
const MIN_SECONDS = Number(process.env.BENCH_SECONDS ?? 1.5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

/** The middle value; of an even count, the mean of the two middle ones. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  if (sorted.length % 2 === 1) return sorted[middle] ?? 0;
  return ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
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

/**
 * Pins this process, all its threads, to one CPU (the children it starts inherit it); false when
 * `taskset` (util-linux) is missing or refuses.
 */
function pinTo(cpu: number): boolean {
  const run = spawnSync('taskset', ['-a', '-p', '-c', String(cpu), String(process.pid)], {
    stdio: 'ignore',
  });
  return !run.error && run.status === 0;
}

/** The CPUs this process may run on (`Cpus_allowed_list`: `0-1`, `0,2-3`); [] off Linux. */
function allowedCpus(): number[] {
  if (!existsSync('/proc/self/status')) return [];
  const line = /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return (line?.[1] ?? '').split(',').flatMap((range) => {
    const [low = NaN, high = low] = range.split('-').map(Number);
    if (!Number.isInteger(low) || !Number.isInteger(high)) return [];
    return Array.from({ length: high - low + 1 }, (_, i) => low + i);
  });
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

const missing = missingCorpusPart('rules', 'oracle');
if (missing !== null) {
  // Every figure here is over the corpus: nothing to measure without it.
  console.log(`rules bench skipped: ${missing} not found (set PALISADE_CORPUS)`);
  process.exit(0);
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
function parsePass(): number {
  let rules = 0;
  for (const file of files) {
    const parsed = parseRulesFile(file.text, { fileName: file.name });
    for (const rule of parsed.rules) touched += touchImportedFields(rule);
    rules += parsed.rules.length;
  }
  return rules;
}
// Pinned from here: the reference passes below run on the first CPU, the rounds on each.
const allowed = allowedCpus();
const cpus: (number | null)[] = allowed.length > 0 && pinTo(allowed[0] ?? 0) ? allowed : [null];
if (cpus[0] === null) console.log('not pinned to a CPU (no taskset, or no Linux CPU list)');
const naive = measure(() => {
  let size = 0;
  for (const file of files) {
    for (const line of file.text.split('\n')) size += JSON.stringify(line).length;
  }
  return size;
});
const readSeconds = measure(() => loadCorpusRuleFiles().length).seconds;

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const ms = (seconds: number): string => `${(seconds * 1000).toFixed(1)} ms`;
console.log(`corpus: ${files.length} rule files, ${(characters / 1e6).toFixed(1)} M characters`);
console.log(`read + gunzip corpus:                     ${(readSeconds * 1000).toFixed(0)} ms`);
console.log(`naive split('\\n') + JSON.stringify/line:  ${ms(naive.seconds)} per pass`);

interface Round {
  rules: number;
  seconds: number;
  best: number;
  /** suricata-update's rate (rules/s) in the same round, median and best pass; or why not. */
  reference: { rate: number; best: number } | string;
}
const texts = files.map((file) => file.text);
const rounds: Round[] = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const cpu of cpus) {
    if (cpu !== null && !pinTo(cpu))
      throw new Error(`taskset could not pin this process to CPU ${cpu}`);
    const parse = measure(parsePass);
    const live = suricataUpdateRun(texts);
    const reference =
      typeof live === 'string'
        ? live
        : { rate: live.rules / live.seconds, best: live.rules / live.best };
    rounds.push({ rules: parse.result, seconds: parse.seconds, best: parse.best, reference });
    const ours = parse.result / parse.seconds;
    const versus =
      typeof reference === 'string'
        ? `suricata-update ${reference}`
        : `suricata-update ${fmt(reference.rate)} rules/s → ${(ours / reference.rate).toFixed(1)}×`;
    console.log(
      `round ${round + 1}${cpu === null ? '' : `, CPU ${cpu}`}: parseRulesFile ${fmt(ours)} rules/s ` +
        `(median ${ms(parse.seconds)} a pass, best ${ms(parse.best)}); ${versus}`,
    );
  }
}
if (touched === 0) console.log('no rule fields read');

const rules = rounds[0]?.rules ?? 0;
const rate = rules / median(rounds.map((round) => round.seconds));
const best = Math.min(...rounds.map((round) => round.best));
console.log(
  `parseRulesFile:                           ${fmt(rate)} rules/s, ${fmt(rules)} rules ` +
    `(median of the rounds' medians ${ms(rules / rate)} a pass, ${(characters / (rules / rate) / 1e6).toFixed(0)} M chars/s; ` +
    `best pass ${ms(best)}, ${fmt(rules / best)} rules/s)`,
);
console.log(
  `ratio parse / naive pass:                 ${(rules / rate / naive.seconds).toFixed(2)}× the time`,
);
console.log(
  `ratio parse / read + gunzip:              ${(rules / rate / readSeconds).toFixed(2)}× the time`,
);
const compared = rounds.flatMap((round) =>
  typeof round.reference === 'string'
    ? []
    : [
        {
          median: round.rules / round.seconds / round.reference.rate,
          best: round.rules / round.best / round.reference.best,
        },
      ],
);
if (compared.length > 0) {
  // Ratios are taken within a round (same CPU, same minute) and then summarised: a ratio of two
  // figures measured apart would mostly measure the neighbours.
  const ratios = compared.map((c) => c.median).sort((a, b) => a - b);
  console.log(
    `ours / suricata-update on one core:       ${median(ratios).toFixed(1)}× (median of ${ratios.length} rounds; ` +
      `lowest ${ratios[0]?.toFixed(1)}×, highest ${ratios[ratios.length - 1]?.toFixed(1)}×; ` +
      `best pass against best pass ${median(compared.map((c) => c.best)).toFixed(1)}×)`,
  );
}
const recorded = recordedReferenceRate();
const referenceRate = recorded.rules / recorded.seconds;
console.log(
  `suricata-update 1.2.7 (recorded in oracle/*.summary.json, not this run): ${fmt(referenceRate)} rules/s ` +
    `→ ours ${(rate / referenceRate).toFixed(1)}×`,
);
