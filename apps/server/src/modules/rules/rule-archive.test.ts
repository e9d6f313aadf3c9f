import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error.js';
import { unpackUpload } from './rule-archive.js';

const MiB = 1024 * 1024;

describe('unpackUpload', () => {
  it('refuses a .tar.gz that unpacks past the ceiling with payload_too_large, naming it', async () => {
    // 4 MiB of zeros gzip to a few KiB: a small upload that would unpack large.
    const bomb = gzipSync(Buffer.alloc(4 * MiB));
    const refusal = await unpackUpload('bomb.tar.gz', bomb, 1 * MiB).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: 'payload_too_large' });
    expect((refusal as Error).message).toContain('bomb.tar.gz');
    expect((refusal as Error).message).toContain('1 MiB');
  });

  it('calls a damaged gzip damaged, naming the archive', async () => {
    const damaged = gzipSync(Buffer.from('alert tcp any any -> any any (sid:1;)\n')).subarray(
      0,
      20,
    );
    const refusal = await unpackUpload('cut.tgz', damaged).catch((e: unknown) => e);
    expect(refusal).toMatchObject({ code: 'validation_failed' });
    expect((refusal as Error).message).toContain('cut.tgz: damaged or unreadable archive');
  });
});
