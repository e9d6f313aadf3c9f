// Flowbit resolution against suricata-update's own, on the same real rules: what it enables for
// flowbits a policy of all the set's groups enables too, with the same text (` noalert;` where
// it puts it). Each set is imported through the API and rendered; suricata-update runs
// `--offline` on the same file beside it.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseRule } from '@palisade/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, NEEDS_CORPUS, corpusForTests, postFiles } from '../../test/corpus.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

const COMMUNITY = 'rules/snort2-community/community.rules';

function suricataUpdateMissing(): string | null {
  const probe = spawnSync('suricata-update', ['--version'], { encoding: 'utf8' });
  return probe.error || probe.status !== 0
    ? 'suricata-update not found (apt install suricata-update)'
    : null;
}

const corpusThere = corpusForTests(COMMUNITY);
const missingTool = corpusThere ? suricataUpdateMissing() : null;
if (missingTool !== null) console.log(`flowbit agreement tests skipped: ${missingTool}`);
const AGREEMENT = { skip: !corpusThere || missingTool !== null, timeout: 600_000 };

/** ET Open archives, wherever the corpus keeps them: `emerging…tar.gz`, or in an `et-open` folder. */
function etOpenArchives(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(tar\.gz|tgz)$/i.test(name) && /emerging|et-?open/i.test(full)) found.push(full);
    }
  };
  if (corpusThere) walk(path.join(CORPUS, 'rules'));
  return found.sort();
}

/**
 * The Snort community rules with every rule that writes a flowbit commented out, as ET Open
 * ships many: the rules checking them stay enabled, so both sides have something to resolve.
 */
function writersDisabled(dir: string): string {
  const file = path.join(dir, 'community-writers-off.rules');
  const lines = readFileSync(path.join(CORPUS, COMMUNITY), 'utf8')
    .split('\n')
    .map((line) =>
      /^(alert|drop|pass|reject)\s.*flowbits\s*:\s*(set|setx|unset|toggle)\s*,/.test(line)
        ? `# ${line}`
        : line,
    );
  writeFileSync(file, lines.join('\n'));
  return file;
}

interface Reference {
  /** Enabled rules of suricata-update's output, by `gid:sid`. */
  enabled: Map<string, string>;
  /** What it logged: "Enabled N rules for flowbit dependencies." */
  logged: number;
}

/** suricata-update on one file: once to fill its cache from the file, then `--offline`. */
function suricataUpdate(file: string, dir: string): Reference {
  const args = ['--no-test', '--no-reload', '-D', path.join(dir, 'su-data')];
  const out = path.join(dir, 'su-out');
  const first = spawnSync('suricata-update', [...args, '-o', out, '--url', `file://${file}`], {
    encoding: 'utf8',
  });
  if (first.status !== 0) throw new Error(`suricata-update failed: ${first.stderr}`);
  rmSync(out, { recursive: true, force: true });
  const run = spawnSync(
    'suricata-update',
    [...args, '-o', out, '--url', `file://${file}`, '--offline'],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`suricata-update --offline failed: ${run.stderr}`);
  const logged = /Enabled (\d+) rules for flowbit dependencies/.exec(run.stderr + run.stdout);
  const enabled = new Map<string, string>();
  for (const line of readFileSync(path.join(out, 'suricata.rules'), 'utf8').split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const { rule } = parseRule(line);
    if (rule) enabled.set(`${rule.gid}:${rule.sid}`, line);
  }
  return { enabled, logged: Number(logged?.[1] ?? -1) };
}

/** The bits suricata-update requires: `isset`/`isnotset` values as it reads them (untrimmed). */
function literallyChecked(lines: Iterable<string>): Set<string> {
  const bits = new Set<string>();
  for (const line of lines) {
    for (const value of parseRule(line).rule?.flowbits ?? []) {
      const [command, bit] = value.split(/,(.*)/s);
      if ((command === 'isset' || command === 'isnotset') && bit !== undefined) bits.add(bit);
    }
  }
  return bits;
}

describe(`flowbit resolution agrees with suricata-update ${NEEDS_CORPUS}`, () => {
  let dir: string;

  beforeAll(() => {
    if (!AGREEMENT.skip) dir = mkdtempSync(path.join(os.tmpdir(), 'palisade-flowbits-'));
  });
  afterAll(() => {
    if (!AGREEMENT.skip) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Imports the file into a new database (rules are one per gid:sid in an organization: sets
   * sharing sids must not meet), renders a policy of its groups, compares with suricata-update.
   */
  async function agree(file: string) {
    const server = await startTestServer();
    try {
      return await agreeOn(server, file);
    } finally {
      await server.close();
    }
  }

  async function agreeOn(server: TestServer, file: string) {
    const admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const imported = await postFiles(server.app, '/rules/import', admin, [
      { name: path.basename(file), bytes: readFileSync(file) },
    ]);
    expect(imported.statusCode, imported.body).toBe(200);
    const groups = (
      await api(server.app, { method: 'GET', url: '/groups/?limit=100000', headers: admin })
    )
      .json<{ data: { id: number }[] }>()
      .data.map((g) => g.id);
    const policy = await api(server.app, {
      method: 'POST',
      url: '/policies/',
      headers: admin,
      payload: { name: path.basename(file), group_ids: groups },
    });
    const render = (
      await api(server.app, {
        method: 'GET',
        url: `/policies/${policy.json<{ id: number }>().id}/render`,
        headers: admin,
      })
    ).json<{ rules: string; flowbit_rules: { gid: number; sid: number; flowbits: string[] }[] }>();
    const ours = new Map<string, string>();
    for (const line of render.rules.split('\n')) {
      const { rule } = parseRule(line);
      if (rule) ours.set(`${rule.gid}:${rule.sid}`, line);
    }
    const oursForFlowbits = new Map(render.flowbit_rules.map((r) => [`${r.gid}:${r.sid}`, r]));

    const reference = suricataUpdate(file, dir);
    // What suricata-update enabled for flowbits: enabled in its output, not in the file.
    const fileEnabled = new Set([...ours.keys()].filter((key) => !oursForFlowbits.has(key)));
    const theirsForFlowbits = [...reference.enabled.keys()].filter((key) => !fileEnabled.has(key));
    expect(theirsForFlowbits.length).toBe(reference.logged);
    for (const key of theirsForFlowbits) {
      expect(oursForFlowbits.has(key), `${key} enabled by suricata-update`).toBe(true);
      expect(ours.get(key)).toBe(reference.enabled.get(key));
    }
    // Ours beyond it: only bits suricata-update never reads as checked, because an enabled rule
    // names them in a group (`a|b`) or after a space (`isset, a`).
    const checked = literallyChecked(reference.enabled.values());
    const beyond = [...oursForFlowbits.values()].filter(
      (r) => !reference.enabled.has(`${r.gid}:${r.sid}`),
    );
    for (const rule of beyond) {
      expect(
        rule.flowbits.filter((bit) => checked.has(bit)),
        `${rule.gid}:${rule.sid}`,
      ).toEqual([]);
    }
    return { theirs: theirsForFlowbits.length, ours: oursForFlowbits.size };
  }

  it('on the Snort community rules as published', AGREEMENT, async () => {
    const counts = await agree(path.join(CORPUS, COMMUNITY));
    expect(counts).toEqual({ theirs: 0, ours: 0 });
  });

  it('on the Snort community rules with their flowbit writers disabled', AGREEMENT, async () => {
    const counts = await agree(writersDisabled(dir));
    expect(counts.theirs).toBeGreaterThan(0);
    expect(counts.ours).toBe(counts.theirs);
  });

  for (const archive of etOpenArchives()) {
    it(`on ${path.relative(CORPUS, archive)}`, AGREEMENT, async () => {
      const counts = await agree(archive);
      expect(counts.theirs).toBeGreaterThan(0);
    });
  }
});
