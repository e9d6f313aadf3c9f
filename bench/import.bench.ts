// Rule sets at Emerging Threats scale: a 32,000-rule archive (real corpus rules, sids renumbered
// so they are all distinct, all enabled) imported through the API into PGlite (in its data folder,
// as `npm start` keeps it) and into the PostgreSQL server, beside suricata-update processing the
// same archive in the same run; then the server time of a 5000-rule page sorted and filtered, and
// of rendering a policy of all 32,000 rules, with and without flowbit resolution. Prints figures
// and ratios; asserts nothing.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { packTar } from 'modern-tar';
import { CORPUS, multipart } from '../apps/server/src/test/corpus.js';
import { missingCorpusPart } from '../testing/corpus.mjs';
import { CORPUS_RULE_PARTS, corpusRuleTexts } from './lib/corpus-rules.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  signIn,
  startTestServer,
} from '../apps/server/src/test/harness.js';

const RULES = 32_000;
const PER_FILE = 1000;

const missing = missingCorpusPart(...CORPUS_RULE_PARTS);
if (missing !== null) {
  // The archive is built from real rule sets: nothing to measure without them.
  console.log(`import bench skipped: ${missing} not found (set PALISADE_CORPUS)`);
  process.exit(0);
}

async function buildArchive(dir: string): Promise<string> {
  const texts = corpusRuleTexts();
  const entries: { header: { name: string; size: number }; body: Uint8Array }[] = [];
  const encoder = new TextEncoder();
  for (let file = 0; file * PER_FILE < RULES; file += 1) {
    const lines: string[] = [];
    for (let i = file * PER_FILE; i < Math.min(RULES, (file + 1) * PER_FILE); i += 1) {
      lines.push(
        (texts[i % texts.length] ?? '').replace(/\bsid\s*:\s*\d+/, `sid:${10_000_000 + i}`),
      );
    }
    const body = encoder.encode(`${lines.join('\n')}\n`);
    entries.push({
      header: { name: `rules/bench-${String(file).padStart(2, '0')}.rules`, size: body.length },
      body,
    });
  }
  const classification = readFileSync(path.join(CORPUS, 'config/suricata/classification.config'));
  entries.push({
    header: { name: 'rules/classification.config', size: classification.length },
    body: new Uint8Array(classification),
  });
  const archive = path.join(dir, 'bench-rules.tar.gz');
  writeFileSync(archive, gzipSync(await packTar(entries)));
  return archive;
}

const seconds = (started: number) => (performance.now() - started) / 1000;

/** Runs of each timed import, on both sides; the median is printed. */
const RUNS = Number(process.env['BENCH_RUNS'] ?? 3);
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

function suricataUpdate(archive: string, dir: string): { full: number; offline: number } | string {
  const data = path.join(dir, 'su-data');
  const out = path.join(dir, 'su-out');
  const args = ['--no-test', '--no-reload', '-D', data, '-o', out, '--url', `file://${archive}`];
  const started = performance.now();
  const full = spawnSync('suricata-update', args, { encoding: 'utf8' });
  if (full.error || full.status !== 0)
    return `not run (${full.error?.message ?? full.stderr.split('\n').at(-2)})`;
  const fullSeconds = seconds(started);
  const offline: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    rmSync(out, { recursive: true, force: true });
    const t0 = performance.now();
    spawnSync('suricata-update', [...args, '--offline'], { encoding: 'utf8' });
    offline.push(seconds(t0));
  }
  return { full: fullSeconds, offline: median(offline) };
}

/** Seconds of the archive's first import into a fresh database of `kind`. */
async function firstImport(kind: 'pglite' | 'postgres', archive: string): Promise<number> {
  process.env['TEST_DB'] = kind;
  const server = await startTestServer({}, { pgliteOnDisk: true });
  try {
    const admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const body = await multipart([{ name: 'bench-rules.tar.gz', bytes: readFileSync(archive) }]);
    const started = performance.now();
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/v1/rules/import',
      headers: { ...admin, ...body.headers },
      payload: body.payload,
    });
    if (response.statusCode !== 200) throw new Error(response.body);
    return seconds(started);
  } finally {
    await server.close();
  }
}

async function palisade(kind: 'pglite' | 'postgres', archive: string) {
  const earlier: number[] = [];
  for (let run = 1; run < RUNS; run += 1) earlier.push(await firstImport(kind, archive));
  process.env['TEST_DB'] = kind;
  const server = await startTestServer({}, { pgliteOnDisk: true });
  try {
    const admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const body = await multipart([{ name: 'bench-rules.tar.gz', bytes: readFileSync(archive) }]);
    const upload = () =>
      server.app.inject({
        method: 'POST',
        url: '/api/v1/rules/import',
        headers: { ...admin, ...body.headers },
        payload: body.payload,
      });
    let started = performance.now();
    const first = await upload();
    const importSeconds = median([...earlier, seconds(started)]);
    const report = first.json<{ added: number }>();
    started = performance.now();
    await upload();
    const reimportSeconds = seconds(started);

    const pageTimes: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      started = performance.now();
      const page = await server.app.inject({
        url: '/api/v1/rules/?limit=5000&offset=5000&sortBy=msg&sortDesc=true&filter=enabled:true',
        headers: admin,
      });
      if (page.statusCode !== 200) throw new Error(page.body);
      pageTimes.push(seconds(started));
    }
    const groups = (
      await server.app.inject({ url: '/api/v1/groups/?limit=999999', headers: admin })
    ).json<{ data: { id: number }[] }>();
    const policy = await server.app.inject({
      method: 'POST',
      url: '/api/v1/policies/',
      headers: admin,
      payload: { name: 'everything', group_ids: groups.data.map((g) => g.id) },
    });
    const policyId = policy.json<{ id: number }>().id;
    // Flowbit resolution on (the default) and off, alternately, so that both see the same load.
    const renderTimes = { on: [] as number[], off: [] as number[] };
    let ruleCount = 0;
    for (let i = 0; i < 6; i += 1) {
      const resolve = i % 2 === 0;
      await server.app.inject({
        method: 'PUT',
        url: `/api/v1/policies/${policyId}`,
        headers: admin,
        payload: { resolve_flowbits: resolve },
      });
      started = performance.now();
      const rendered = await server.app.inject({
        url: `/api/v1/policies/${policyId}/render`,
        headers: admin,
      });
      renderTimes[resolve ? 'on' : 'off'].push(seconds(started));
      ruleCount = rendered.json<{ rule_count: number }>().rule_count;
    }
    return {
      added: report.added,
      importSeconds,
      reimportSeconds,
      page: median(pageTimes),
      render: median(renderTimes.on),
      renderWithoutFlowbits: median(renderTimes.off),
      ruleCount,
    };
  } finally {
    await server.close();
  }
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'palisade-import-bench-'));
try {
  const archive = await buildArchive(dir);
  console.log(
    `rule archive: ${RULES} rules in ${RULES / PER_FILE} files + classification.config (real corpus rules, sids renumbered)`,
  );
  const reference = suricataUpdate(archive, dir);
  if (typeof reference === 'string') console.log(`suricata-update: ${reference}`);
  else {
    console.log(
      `suricata-update (file:// URL, fresh cache): ${reference.full.toFixed(2)} s; --offline re-run: ${reference.offline.toFixed(2)} s (median of ${RUNS})`,
    );
  }
  const kinds = (process.env['BENCH_DB'] ?? 'pglite,postgres').split(',') as (
    'pglite' | 'postgres'
  )[];
  for (const kind of kinds) {
    const r = await palisade(kind, archive);
    const ratio =
      typeof reference === 'string'
        ? ''
        : ` (${(r.importSeconds / reference.offline).toFixed(2)}× suricata-update --offline; target ≤ 1×)`;
    console.log(
      `${kind.padEnd(8)} import ${r.added} rules: ${r.importSeconds.toFixed(2)} s (median of ${RUNS} fresh databases)${ratio}; re-import (unchanged): ${r.reimportSeconds.toFixed(2)} s`,
    );
    console.log(
      `${kind.padEnd(8)} 5000-rule page, sorted by msg, filtered: ${(r.page * 1000).toFixed(0)} ms; render a ${r.ruleCount}-rule policy: ${(r.render * 1000).toFixed(0)} ms (${(r.renderWithoutFlowbits * 1000).toFixed(0)} ms without flowbit resolution)`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
