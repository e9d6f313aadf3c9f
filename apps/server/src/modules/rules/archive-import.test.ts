// Archives as they really are (issue 17 item 5): suricata-verify's tree of `tests/<test>/*.rules`,
// with files that share a base name, files without a valid rule and Suricata 7/8 actions.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseRulesFile } from '@palisade/rules';
import { packTar } from 'modern-tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, NEEDS_CORPUS, corpusForTests, oracle, postFiles } from '../../test/corpus.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

type Headers = { authorization: string };
interface Line {
  file: string;
  line: number;
  msg: string;
}
interface Report {
  files: { file: string; group: string; rules: number }[];
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
  rejected: Line[];
  warnings: Line[];
  warning_count: number;
}
interface Group {
  name: string;
  kind: string;
  rule_count: number;
}

/** A .tar.gz of `members` (path → text), in that order. */
async function tarGz(members: Record<string, string>): Promise<Buffer> {
  const entries = Object.entries(members).map(([name, text]) => {
    const body = new TextEncoder().encode(text);
    return { header: { name, size: body.length }, body };
  });
  return gzipSync(await packTar(entries));
}

const rule = (sid: number, action = 'alert tcp any any -> any any') =>
  `${action} (msg:"rule ${sid}"; sid:${sid}; rev:1;)\n`;

/** A tree shaped like suricata-verify's: `test.rules` in several folders, and odd members. */
const TREE = {
  'tests/alpha/test.rules': rule(7001) + rule(7002),
  'tests/beta/test.rules':
    rule(7003) +
    rule(7004, 'accept:hook tcp:all any any -> any any') +
    rule(7005, 'drop:flow tcp any any -> any any') +
    rule(7006, 'alert:flow tcp any any -> any any'),
  'tests/config-rule/test.rules':
    '# Suricata 7 config rules only\n' +
    'config dns any any -> any any (dns.query; content:"example"; config: logging disable, type tx, scope tx; sid:7007;)\n',
  'tests/broken/test.rules': rule(7008, 'bogus tcp any any -> any any'),
  'tests/empty/base.rules': '# nothing here\n',
};

describe('archive import', () => {
  let server: TestServer;
  let admin: Headers;

  const upload = async (name: string, bytes: Uint8Array, query = '') => {
    return postFiles(server.app, `/rules/import${query}`, admin, [{ name, bytes }]);
  };
  const groups = async () =>
    (await api(server.app, { url: '/groups/?limit=999999', headers: admin })).json<{
      data: Group[];
    }>().data;
  const rulesPage = async (query: string) =>
    (await api(server.app, { url: `/rules/${query}`, headers: admin })).json<{
      data: { gid: number; sid: number; action: string; removed: boolean; groups: string[] }[];
      recordsTotal: number;
    }>();

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
  });
  afterAll(() => server.close());

  it('refuses in strict mode an archive with a bad line or a file without rules, naming it', async () => {
    const bad = await upload('tree.tar.gz', await tarGz(TREE), '?strict=true');
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ msg: string }>().msg).toContain('first: tests/beta/test.rules line 4');

    const { 'tests/empty/base.rules': empty, 'tests/alpha/test.rules': alpha } = TREE;
    const ruleless = await upload(
      'tree.tar.gz',
      await tarGz({ 'tests/alpha/test.rules': alpha, 'tests/empty/base.rules': empty }),
      '?strict=true',
    );
    expect(ruleless.statusCode).toBe(422);
    expect(ruleless.json<{ msg: string }>().msg).toBe(
      '1 file(s) without a rule; first: tests/empty/base.rules',
    );
    expect((await rulesPage('?limit=0')).recordsTotal).toBe(0);
    expect(await groups()).toEqual([]);
  });

  it('names groups by path, imports beside a file without rules, and names files by full path', async () => {
    const response = await upload('tree.tar.gz', await tarGz(TREE));
    expect(response.statusCode).toBe(200);
    const report = response.json<Report>();
    expect(report.files).toEqual([
      { file: 'tests/alpha/test.rules', group: 'alpha/test', rules: 2 },
      { file: 'tests/beta/test.rules', group: 'beta/test', rules: 3 },
      { file: 'tests/config-rule/test.rules', group: 'config-rule/test', rules: 1 },
      { file: 'tests/empty/base.rules', group: 'empty/base', rules: 0 },
    ]);
    expect(report).toMatchObject({ added: 6, removed: 0 });
    expect(report.rejected).toEqual([
      {
        file: 'tests/beta/test.rules',
        line: 4,
        column: 1,
        msg: "action 'alert' takes no scope ('alert:flow')",
      },
      expect.objectContaining({ file: 'tests/broken/test.rules', line: 1 }),
    ]);
    expect(report.warnings).toEqual([
      {
        file: 'tests/broken/test.rules',
        line: 0,
        column: 0,
        msg: "no valid rule (1 line(s) rejected; first, line 1: unknown action 'bogus'): its group is left as it was",
      },
      { file: 'tests/empty/base.rules', line: 0, column: 0, msg: 'holds no rule' },
    ]);

    const byName = new Map((await groups()).map((g) => [g.name, g]));
    expect(byName.get('alpha/test')).toMatchObject({ kind: 'file', rule_count: 2 });
    expect(byName.get('beta/test')).toMatchObject({ kind: 'file', rule_count: 3 });
    expect(byName.get('config-rule/test')).toMatchObject({ rule_count: 1 });
    expect(byName.has('broken/test')).toBe(false);
    expect(byName.has('test')).toBe(false);
    const config = (await rulesPage('?filter=sid:7007')).data[0];
    expect(config).toMatchObject({ action: 'config', groups: ['config-rule/test'] });
    expect((await rulesPage('?filter=sid:7004')).data[0]?.action).toBe('accept:hook');
  });

  it('re-imports the same tree without change, and marks only what left a file removed', async () => {
    const again = (await upload('tree.tar.gz', await tarGz(TREE))).json<Report>();
    expect(again).toMatchObject({ added: 0, updated: 0, removed: 0, unchanged: 6 });

    const nextDay = { ...TREE, 'tests/alpha/test.rules': rule(7001) };
    const next = (await upload('tree.tar.gz', await tarGz(nextDay))).json<Report>();
    expect(next).toMatchObject({ added: 0, removed: 1, unchanged: 5 });
    const removed = await rulesPage('?filter=removed:true');
    expect(removed.data.map((r) => r.sid)).toEqual([7002]);
  });

  it(
    `imports suricata-verify's whole tree: a group per test file, none removed ${NEEDS_CORPUS}`,
    { skip: !corpusForTests('rules/suricata-verify', 'oracle'), timeout: 120_000 },
    async () => {
      const root = path.join(CORPUS, 'rules/suricata-verify');
      const names = readdirSync(root, { recursive: true })
        .map((name) => String(name).split(path.sep).join('/'))
        .filter((name) => name.endsWith('.rules'))
        .sort();
      const members = Object.fromEntries(
        names.map((name) => [name, readFileSync(path.join(root, name), 'utf8')]),
      );
      const withRules = names.filter(
        (name) => parseRulesFile(members[name] ?? '', { fileName: name }).rules.length > 0,
      );

      const response = await upload('suricata-verify.tar.gz', await tarGz(members));
      expect(response.statusCode).toBe(200);
      const report = response.json<Report>();
      expect(report.removed).toBe(0);
      const groupOf = (name: string) => name.replace(/^tests\//, '').replace(/\.rules$/, '');
      const named = report.files.filter((f) => f.rules > 0).map((f) => `${f.file} → ${f.group}`);
      expect(named.sort()).toEqual(withRules.map((name) => `${name} → ${groupOf(name)}`).sort());
      for (const line of [...report.rejected, ...report.warnings]) {
        expect(members[line.file], line.file).toBeDefined();
      }
      const stored = new Set(
        (await rulesPage('?limit=100000')).data.map((r) => `${r.gid}:${r.sid}`),
      );
      // Each rule the reference read is stored, or its line is reported as rejected.
      const rejected = new Set(report.rejected.map((line) => `${line.file}:${line.line}`));
      const lost = oracle('suricata-verify')
        .filter((r) => !stored.has(`${r.gid}:${r.sid}`))
        .map((r) => `${r.file.replace(/^.*suricata-verify\//, '')}:${r.line}`)
        .filter((line) => !rejected.has(line));
      expect(lost).toEqual([]);

      const again = (await upload('suricata-verify.tar.gz', await tarGz(members))).json<Report>();
      expect(again).toMatchObject({ added: 0, removed: 0 });
    },
  );
});
