import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { packTar } from 'modern-tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error.js';
import { UploadBudget } from '../../lib/uploads.js';
import { memberNames, UploadStage, unpackUpload } from './rule-archive.js';

const MiB = 1024 * 1024;

describe('unpackUpload', () => {
  let dataDir: string;
  let stage: UploadStage;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'palisade-archive-'));
    stage = await UploadStage.open(dataDir);
  });
  afterAll(async () => {
    await stage.remove();
    await rm(dataDir, { recursive: true, force: true });
  });
  const unpack = (name: string, bytes: Uint8Array, limit = 16 * MiB) =>
    unpackUpload(name, Readable.from([bytes]), { budget: new UploadBudget(limit), stage });

  it('refuses a .tar.gz that unpacks past the limit with payload_too_large, naming it', async () => {
    // 4 MiB of zeros gzip to a few KiB: a small upload that would unpack large.
    const bomb = gzipSync(Buffer.alloc(4 * MiB));
    const refusal = await unpack('bomb.tar.gz', bomb, 1 * MiB).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: 'payload_too_large' });
    expect((refusal as Error).message).toContain('bomb.tar.gz');
    expect((refusal as Error).message).toContain('1 MiB');
  });

  it('draws every file of a request from one budget', async () => {
    const budget = new UploadBudget(1 * MiB);
    const half = Buffer.alloc(600 * 1024, 'a');
    await unpackUpload('a.rules', Readable.from([half]), { budget, stage });
    const refusal = await unpackUpload('b.rules', Readable.from([half]), { budget, stage }).catch(
      (e: unknown) => e,
    );
    expect(refusal).toMatchObject({ code: 'payload_too_large' });
    expect((refusal as Error).message).toContain('b.rules');
  });

  it('stages a rules file on disk and reads it back when asked', async () => {
    const text = 'alert tcp any any -> any any (msg:"x"; sid:1;)\n';
    const { ruleFiles } = await unpack('dir/local.rules', Buffer.from(text));
    expect(ruleFiles.map((f) => [f.path, f.name])).toEqual([['dir/local.rules', 'local.rules']]);
    expect((await readdir(stage.dir)).length).toBeGreaterThan(0);
    expect(await ruleFiles[0]?.read()).toBe(text);
  });

  it('calls a NUL byte in a rules file binary, naming the file and the line', async () => {
    const refusal = await unpack('bin.rules', Buffer.from('# one\n# two\nal\0ert\n')).catch(
      (e: unknown) => e,
    );
    expect(refusal).toMatchObject({ code: 'validation_failed' });
    expect((refusal as Error).message).toContain('bin.rules line 3');
  });

  it('calls a damaged gzip damaged, naming the archive', async () => {
    const damaged = gzipSync(Buffer.from('alert tcp any any -> any any (sid:1;)\n')).subarray(
      0,
      20,
    );
    const refusal = await unpack('cut.tgz', damaged).catch((e: unknown) => e);
    expect(refusal).toMatchObject({ code: 'validation_failed' });
    expect((refusal as Error).message).toContain('cut.tgz: damaged or unreadable archive');
  });

  it('names members by their path inside the archive, less the folders all of them share', async () => {
    const rule = (sid: number) =>
      new TextEncoder().encode(`alert tcp any any -> any any (msg:"m"; sid:${sid};)\n`);
    const entry = (name: string, body: Uint8Array) => ({
      header: { name, size: body.length },
      body,
    });
    const tree = gzipSync(
      await packTar([
        entry('./tests/b/test.rules', rule(2)),
        entry('tests/a/test.rules', rule(1)),
        entry('tests/a/deep/x.rules', rule(3)),
        entry('tests/a/README.md', rule(4)),
      ]),
    );
    const { ruleFiles } = await unpack('suricata-verify.tar.gz', tree);
    expect(ruleFiles.map((f) => [f.path, f.name])).toEqual([
      ['tests/a/deep/x.rules', 'a/deep/x.rules'],
      ['tests/a/test.rules', 'a/test.rules'],
      ['tests/b/test.rules', 'b/test.rules'],
    ]);
    expect(await ruleFiles[2]?.read()).toContain('sid:2;');

    const zip = zipSync({
      'rules/emerging-dos.rules': rule(5),
      'rules/emerging-ftp.rules': rule(6),
      'rules/classification.config': new TextEncoder().encode('config classification: x,X,1\n'),
    });
    const zipped = await unpack('emerging.rules.zip', zip);
    expect(zipped.ruleFiles.map((f) => [f.path, f.name])).toEqual([
      ['rules/emerging-dos.rules', 'emerging-dos.rules'],
      ['rules/emerging-ftp.rules', 'emerging-ftp.rules'],
    ]);
    expect(zipped.classificationPath).toBe('rules/classification.config');
  });

  it('calls a NUL byte in an archive member binary, naming its full path', async () => {
    const body = new TextEncoder().encode('# one\nal\0ert\n');
    const tar = gzipSync(
      await packTar([{ header: { name: 'tests/a/test.rules', size: body.length }, body }]),
    );
    const refusal = await unpack('sv.tar.gz', tar).catch((e: unknown) => e);
    expect((refusal as Error).message).toContain('sv.tar.gz:tests/a/test.rules line 2');
  });
});

describe('memberNames', () => {
  it.each([
    [
      ['rules/emerging-dos.rules', 'rules/emerging-ftp.rules'],
      ['emerging-dos.rules', 'emerging-ftp.rules'],
    ],
    [['community-rules/community.rules'], ['community.rules']],
    [
      ['tests/a/test.rules', 'tests/b/test.rules'],
      ['a/test.rules', 'b/test.rules'],
    ],
    [
      ['tests/a/x/1.rules', 'tests/a/y/1.rules'],
      ['x/1.rules', 'y/1.rules'],
    ],
    [
      ['top.rules', 'rules/other.rules'],
      ['top.rules', 'rules/other.rules'],
    ],
    [
      ['a/b/one.rules', 'a/c/two.rules', 'a/b/three.rules'],
      ['b/one.rules', 'c/two.rules', 'b/three.rules'],
    ],
    [
      ['ab/x.rules', 'a/x.rules'],
      ['ab/x.rules', 'a/x.rules'],
    ],
  ])('names %j as %j', (paths, names) => {
    expect(memberNames(paths)).toEqual(names);
  });
});

describe('UploadStage.removeStale', () => {
  it('deletes only the stages older than the limit that a crash left', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'palisade-stages-'));
    try {
      const uploads = path.join(dataDir, 'uploads');
      for (const name of ['import-old', 'import-new', 'keep-me']) {
        await mkdir(path.join(uploads, name), { recursive: true });
        await writeFile(path.join(uploads, name, 'file'), 'x');
      }
      const twoDaysAgo = new Date(Date.now() - 48 * 3600_000);
      await utimes(path.join(uploads, 'import-old'), twoDaysAgo, twoDaysAgo);
      await utimes(path.join(uploads, 'keep-me'), twoDaysAgo, twoDaysAgo);

      const removed = await UploadStage.removeStale(dataDir, 24 * 3600_000);
      expect(removed).toEqual([path.join(uploads, 'import-old')]);
      expect((await readdir(uploads)).sort()).toEqual(['import-new', 'keep-me']);
      expect(await UploadStage.removeStale(path.join(dataDir, 'none'), 0)).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
