// A scheduled rule source update at Emerging Threats scale: a 30,000-rule archive (real corpus
// rules, sids renumbered so they are all distinct, as the import bench builds one) served from a
// local HTTP server, in which 1 % of the rules changed since the last update (a new rev and
// msg). Timed from the claim of the due update through the fetch, unpack, import, the re-render
// of a policy holding every rule of the source, to the committed changelog; beside
// `suricata-update --offline` processing the same archive, run just before each update so that
// both see the same load. Each run is a new day, changing 300 rules. Prints min/median/max and
// the ratio beside its target (≤ 1.0× on PostgreSQL, ≤ 2.0× on PGlite); asserts nothing.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sourceUpdatesRepository } from '../apps/server/src/modules/rule-sources/rule-source-updates.repository.js';
import { ruleSourcesRepository } from '../apps/server/src/modules/rule-sources/rule-sources.repository.js';
import { SourceFetcher } from '../apps/server/src/modules/rule-sources/source-fetch.js';
import { runUpdate } from '../apps/server/src/modules/rule-sources/source-update.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  signIn,
  startTestServer,
} from '../apps/server/src/test/harness.js';
import {
  ruleArchive,
  sourceApi,
  startSourceServer,
} from '../apps/server/src/test/source-server.js';
import { missingCorpusPart } from '../testing/corpus.mjs';
import { CORPUS_RULE_PARTS, corpusRuleTexts } from './lib/corpus-rules.js';

const RULES = 30_000;
const PER_FILE = 1000;
const CHANGED_EVERY = 100; // 1 %
const RUNS = Number(process.env['BENCH_RUNS'] ?? 5);
const TARGET = { postgres: 1.0, pglite: 2.0 } as const;

const missing = missingCorpusPart(...CORPUS_RULE_PARTS);
if (missing !== null) {
  console.log(`rule sources bench skipped: ${missing} not found (set PALISADE_CORPUS)`);
  process.exit(0);
}

/**
 * Day `day`'s rule files: on day 0 the corpus rules; from day 1 on every 100th rule has a newer
 * rev and msg each day (an older rev would never replace a newer one).
 */
function dayFiles(texts: string[], day: number): { name: string; text: string }[] {
  const files: { name: string; text: string }[] = [];
  for (let file = 0; file * PER_FILE < RULES; file += 1) {
    const lines: string[] = [];
    for (let i = file * PER_FILE; i < Math.min(RULES, (file + 1) * PER_FILE); i += 1) {
      let text = (texts[i % texts.length] ?? '').replace(
        /\bsid\s*:\s*\d+/,
        `sid:${10_000_000 + i}`,
      );
      if (day > 0 && i % CHANGED_EVERY === 0) {
        text = text
          .replace(/\brev\s*:\s*(\d+)/, (_all, rev: string) => `rev:${Number(rev) + 1000 * day}`)
          .replace(/msg\s*:\s*"/, `msg:"(day ${day}) `);
      }
      lines.push(text);
    }
    files.push({
      name: `bench-${String(file).padStart(2, '0')}.rules`,
      text: `${lines.join('\n')}\n`,
    });
  }
  return files;
}

const seconds = (started: number) => (performance.now() - started) / 1000;
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const stats = (values: number[]) => {
  const s = sorted(values);
  return { min: s[0] ?? 0, median: s[Math.floor(s.length / 2)] ?? 0, max: s.at(-1) ?? 0 };
};
const shown = (v: { min: number; median: number; max: number }) =>
  `min ${v.min.toFixed(2)} / median ${v.median.toFixed(2)} / max ${v.max.toFixed(2)} s`;

/**
 * suricata-update on the archive: one full run fills its cache, then each call of the returned
 * function times one `--offline` run (parse, resolve flowbits, write the rules). Called
 * beside each Palisade update, so both see the same load of the machine.
 */
function suricataUpdate(archive: string, dir: string): (() => number) | string {
  const data = path.join(dir, 'su-data');
  const out = path.join(dir, 'su-out');
  const args = ['--no-test', '--no-reload', '-D', data, '-o', out, '--url', `file://${archive}`];
  const full = spawnSync('suricata-update', args, { encoding: 'utf8' });
  if (full.error || full.status !== 0)
    return `not run (${full.error?.message ?? full.stderr.split('\n').at(-2)})`;
  return () => {
    rmSync(out, { recursive: true, force: true });
    const started = performance.now();
    spawnSync('suricata-update', [...args, '--offline'], { encoding: 'utf8' });
    return seconds(started);
  };
}

async function palisade(
  kind: 'pglite' | 'postgres',
  archives: Buffer[],
  reference: (() => number) | null,
): Promise<{ times: number[]; referenceTimes: number[]; changed: number[]; bumped: number[] }> {
  process.env['TEST_DB'] = kind;
  // The server's own runner never looks by itself here: the bench claims each due update.
  const server = await startTestServer({ JOB_CHECK_SECONDS: '3600' }, { pgliteOnDisk: true });
  const http = await startSourceServer();
  try {
    const admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const client = sourceApi(server, admin);
    http.set('/et/emerging.rules.tar.gz', {
      body: archives[0] ?? Buffer.alloc(0),
      etag: '"day-0"',
    });
    const source = await client.create({
      name: 'bench',
      url: http.url('/et/emerging.rules.tar.gz'),
    });
    const first = await client.update(source.id);
    if (first.status !== 'succeeded') throw new Error(`first update: ${first.error}`);
    const groups = (
      await server.app.inject({ url: '/api/v1/groups/?limit=1000', headers: admin })
    ).json<{ data: { id: number; source_id: number | null }[] }>();
    const policy = await server.app.inject({
      method: 'POST',
      url: '/api/v1/policies/',
      headers: admin,
      payload: {
        name: 'everything',
        group_ids: groups.data.filter((g) => g.source_id === source.id).map((g) => g.id),
      },
    });
    if (policy.statusCode !== 201) throw new Error(policy.body);
    await client.edit(source.id, { schedule: { kind: 'interval', hours: 24 } });

    const { db, config, secrets } = server.app.ctx;
    const engine = {
      db,
      secrets,
      fetcher: new SourceFetcher({
        timeoutMs: 60_000,
        maxBytes: config.importMaxBytes,
        publicOnly: false,
      }),
      dataDir: config.dataDir,
      importMaxBytes: config.importMaxBytes,
      leaseMs: 15 * 60_000,
      log: server.app.log,
    };
    const times: number[] = [];
    const referenceTimes: number[] = [];
    const changed: number[] = [];
    const bumped: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      http.set('/et/emerging.rules.tar.gz', {
        body: archives[run + 1] ?? Buffer.alloc(0),
        etag: `"day-${run + 1}"`,
      });
      await db.query('UPDATE rule_sources SET next_update_at = now() WHERE id = $1', [source.id]);
      if (reference) referenceTimes.push(reference());
      const started = performance.now();
      await ruleSourcesRepository.enqueueDue(db);
      const claim = await sourceUpdatesRepository.claim(db, `bench-${run}`, 15 * 60_000);
      if (!claim) throw new Error('nothing to claim');
      await runUpdate(engine, claim);
      times.push(seconds(started));
      const [row] = await db.query<{
        status: string;
        changed: number;
        policies_bumped: number;
        error: string | null;
      }>('SELECT status, changed, policies_bumped, error FROM rule_source_updates WHERE id = $1', [
        claim.id,
      ]);
      if (row?.status !== 'succeeded')
        throw new Error(`update ${claim.id}: ${row?.status} ${row?.error}`);
      changed.push(row.changed);
      bumped.push(row.policies_bumped);
    }
    await engine.fetcher.close();
    return { times, referenceTimes, changed, bumped };
  } finally {
    await http.close();
    await server.close();
  }
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'palisade-sources-bench-'));
try {
  const texts = corpusRuleTexts();
  const archives: Buffer[] = [];
  for (let day = 0; day <= RUNS; day += 1) archives.push(await ruleArchive(dayFiles(texts, day)));
  const nextArchive = path.join(dir, 'emerging.rules.tar.gz');
  writeFileSync(nextArchive, archives[1] ?? Buffer.alloc(0));
  console.log(
    `rule source: ${RULES} rules in ${RULES / PER_FILE} files (real corpus rules, sids renumbered), ${RULES / CHANGED_EVERY} changed per update; load: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${os.cpus().length} CPUs`,
  );
  const reference = suricataUpdate(nextArchive, dir);
  if (typeof reference === 'string') console.log(`suricata-update --offline: ${reference}`);
  const kinds = (process.env['BENCH_DB'] ?? 'pglite,postgres').split(',') as (
    'pglite' | 'postgres'
  )[];
  for (const kind of kinds) {
    const r = await palisade(kind, archives, typeof reference === 'string' ? null : reference);
    const s = stats(r.times);
    console.log(
      `${kind.padEnd(8)} scheduled update, fetch to committed changelog: ${shown(s)} (${RUNS} runs; ${r.changed[0]} rules changed, ${r.bumped[0]} policy bumped each)`,
    );
    if (r.referenceTimes.length === 0) continue;
    const ref = stats(r.referenceTimes);
    const ratios = stats(r.times.map((time, i) => time / (r.referenceTimes[i] ?? time)));
    console.log(
      `${kind.padEnd(8)} suricata-update --offline, same archive, run before each: ${shown(ref)}; ratio ${(s.median / ref.median).toFixed(2)}× (of medians; pairwise min ${ratios.min.toFixed(2)} / median ${ratios.median.toFixed(2)} / max ${ratios.max.toFixed(2)}), target ≤ ${TARGET[kind].toFixed(1)}×`,
    );
  }
  console.log(
    `load after: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
