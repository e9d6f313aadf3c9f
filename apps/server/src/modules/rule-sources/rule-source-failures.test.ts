import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RuleSource } from '@palisade/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { sourceDays } from '../../test/source-days.js';
import {
  closedPort,
  md5Hex,
  ruleArchive,
  sourceApi,
  startSourceServer,
  tableSnapshot,
  type Served,
  type SourceServer,
} from '../../test/source-server.js';
import { SourceFetcher } from './source-fetch.js';

/** Small enough for a test to go past, large enough for the day-one archive. */
const LIMIT = 256 * 1024;

describe('rule sources: a failed update changes no rule and says why', () => {
  let server: TestServer;
  let source: SourceServer;
  let client: ReturnType<typeof sourceApi>;
  let sourceId: number;
  let afterFirst: Record<string, unknown> | undefined;

  beforeAll(async () => {
    server = await startTestServer({
      IMPORT_MAX_BYTES: String(LIMIT),
      RULE_SOURCES_TIMEOUT_SECONDS: '1',
    });
    source = await startSourceServer();
    client = sourceApi(server, await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD));
    source.set('/good/emerging.rules.tar.gz', {
      body: await ruleArchive(sourceDays().first),
    });
    const created = await client.create({
      name: 'failing',
      url: source.url('/good/emerging.rules.tar.gz'),
    });
    sourceId = created.id;
    expect((await client.update(sourceId)).status).toBe('succeeded');
    // Editing the address below rewrites the source's own row, nothing else.
    afterFirst = await tableSnapshot(server, { sources: false });
  });
  afterAll(async () => {
    await server?.close();
    await source?.close();
  });

  /** Points the source at `url` (serving `served` there), updates it, and returns the error. */
  async function failure(
    file: string,
    served: Served | null,
    extra: Record<string, unknown> = {},
  ): Promise<string> {
    if (served) source.set(`/bad/${file}`, served);
    const url = file.startsWith('http') ? file : source.url(`/bad/${file}`);
    await client.edit(sourceId, { url, checksum_url: null, ...extra });
    const done = await client.update(sourceId);
    expect(done.status).toBe('failed');
    expect(await tableSnapshot(server, { sources: false })).toEqual(afterFirst);
    return done.error ?? '';
  }

  it('connection refused', async () => {
    const port = await closedPort();
    expect(await failure(`http://127.0.0.1:${port}/x.rules`, null)).toMatch(
      /^connection refused by 127\.0\.0\.1:\d+/,
    );
  });

  it('timeout', async () => {
    expect(await failure('slow.rules', { hang: true })).toMatch(/^timed out after 1 s/);
  });

  it('HTTP 404 and 503', async () => {
    expect(await failure('missing.rules', { status: 404, body: 'no' })).toMatch(
      /^HTTP 404 Not Found from http:\/\/127\.0\.0\.1:\d+\/bad\/missing\.rules$/,
    );
    expect(await failure('busy.tar.gz', { status: 503, body: 'later' })).toMatch(/^HTTP 503/);
  });

  it('corrupt archive', async () => {
    expect(
      await failure('broken.tar.gz', { body: Buffer.from('this is not gzip at all') }),
    ).toMatch(/damaged or unreadable archive/);
  });

  it('checksum mismatch', async () => {
    const archive = await ruleArchive(sourceDays().next);
    source.set('/bad/sum.tar.gz.md5', { body: `${md5Hex('something else')}  sum.tar.gz\n` });
    expect(
      await failure(
        'sum.tar.gz',
        { body: archive },
        { checksum_url: source.url('/bad/sum.tar.gz.md5') },
      ),
    ).toMatch(/^checksum mismatch: .* has MD5 [0-9a-f]{32}, .* says [0-9a-f]{32}$/);
  });

  it('over the size limit: declared, streamed, or unpacked', async () => {
    const big = Buffer.alloc(LIMIT + 1, '\n');
    expect(await failure('declared.rules', { body: big })).toMatch(
      /is larger than the 256 KiB limit|is larger than the 262144 bytes limit/,
    );
    expect(await failure('streamed.rules', { body: big, chunked: true })).toMatch(
      /is larger than the .* limit/,
    );
    const bomb = await ruleArchive([{ name: 'bomb.rules', text: '\n'.repeat(4 * LIMIT) }]);
    expect(bomb.length).toBeLessThan(LIMIT);
    expect(await failure('bomb.tar.gz', { body: bomb })).toMatch(/unpacks to more than/);
  });

  it('link-local addresses and redirect loops', async () => {
    expect(await failure('http://169.254.169.254/latest/x.rules', null)).toMatch(/link-local/);
    expect(await failure('loop.rules', { redirectTo: '/bad/loop.rules' })).toMatch(
      /more than 5 redirects/,
    );
  });

  it('shows the last failure on the source', async () => {
    const shown = (
      await api(server.app, {
        url: `/rulesources/${sourceId}`,
        headers: await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD),
      })
    ).json<RuleSource>();
    expect(shown.last_update?.status).toBe('failed');
    expect(shown.last_update?.error).toMatch(/redirects/);
    expect(shown.rule_count).toBeGreaterThan(0);
  });
});

describe('rule sources: RULE_SOURCES_PUBLIC_ONLY', () => {
  it('refuses loopback and private addresses, and allows them otherwise', async () => {
    const source = await startSourceServer();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-fetch-'));
    source.set('/x.rules', { body: 'alert tcp any any -> any any (msg:"x"; sid:1; rev:1;)\n' });
    const target = { url: source.url('/x.rules'), shownUrl: source.url('/x.rules'), headers: {} };
    const request = {
      archive: target,
      checksum: null,
      etag: null,
      lastModified: null,
      lastChecksum: null,
    };
    const fetcher = (publicOnly: boolean) =>
      new SourceFetcher({ timeoutMs: 5000, maxBytes: 1 << 20, publicOnly });
    try {
      await expect(fetcher(true).fetch(request, dir)).rejects.toThrow(
        /private address 127\.0\.0\.1, refused under RULE_SOURCES_PUBLIC_ONLY/,
      );
      expect((await fetcher(false).fetch(request, dir)).kind).toBe('downloaded');
    } finally {
      await source.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
