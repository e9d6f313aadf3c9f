import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error.js';
import { UploadBudget } from '../../lib/uploads.js';
import { UploadStage, unpackUpload } from './rule-archive.js';

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
    expect(ruleFiles.map((f) => f.name)).toEqual(['local.rules']);
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
