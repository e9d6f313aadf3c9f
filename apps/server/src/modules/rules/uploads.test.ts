import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { RULE_TEXT_MAX } from '@palisade/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from '../../test/corpus.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

type Headers = { authorization: string };
const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** A ustar header of one regular file of `size` bytes. */
function tarHeader(name: string, size: number): Buffer {
  const header = Buffer.alloc(512);
  const field = (offset: number, length: number, value: string) =>
    header.write(value, offset, length, 'ascii');
  field(0, 100, name);
  field(100, 8, '0000644\0');
  field(108, 8, '0000000\0');
  field(116, 8, '0000000\0');
  field(124, 12, `${size.toString(8).padStart(11, '0')}\0`);
  field(136, 12, '00000000000\0');
  field(148, 8, '        ');
  field(156, 1, '0');
  field(257, 8, 'ustar\u000000');
  let sum = 0;
  for (const byte of header) sum += byte;
  field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return header;
}

/**
 * A .tar.gz of a few MB holding one `.rules` member of `size` newlines: gzip members of 16 MiB
 * each, concatenated (gunzip reads them as one stream), after one for the tar header.
 */
function tarBomb(size: number): Buffer {
  const block = gzipSync(Buffer.alloc(16 * MiB, '\n'), { level: 9 });
  return Buffer.concat([
    gzipSync(tarHeader('rules/bomb.rules', size)),
    ...Array.from({ length: size / (16 * MiB) }, () => block),
  ]);
}

/** Runs `request` while sampling the process's resident memory; its answer and the peak growth. */
async function withPeakRss<T>(request: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  try {
    const result = await request();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, growth: peak - baseline };
  } finally {
    clearInterval(sampler);
  }
}

/** A multipart body written by hand: file names and endings a FormData would not send. */
function rawMultipart(name: string, content: string) {
  const boundary = 'palisade-test-boundary';
  const payload = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n${content}\r\n--${boundary}--\r\n`,
    'latin1',
  );
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const RULE = 'alert tcp any any -> any any (msg:"kept"; sid:9000001; rev:1;)\n';

describe('uploads are bounded before they cost anything', () => {
  let server: TestServer;
  let admin: Headers;
  let operator: Headers;
  let viewer: Headers;
  let bomb: Buffer;

  const post = (
    url: string,
    headers: Headers,
    body: { payload: Buffer; headers: Record<string, string> },
  ) =>
    api(server.app, {
      method: 'POST',
      url,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
  const ruleCount = async () =>
    (await api(server.app, { url: '/rules/?limit=0', headers: admin })).json<{
      recordsTotal: number;
    }>().recordsTotal;
  const groupNames = async () =>
    (await api(server.app, { url: '/groups/?limit=999999', headers: admin }))
      .json<{ data: { name: string }[] }>()
      .data.map((g) => g.name)
      .sort();
  const staged = async () =>
    readdir(path.join(server.dataDir, 'uploads')).catch(() => [] as string[]);

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    for (const role of ['Operator', 'Viewer'] as const) {
      const email = `${role.toLowerCase()}@example.com`;
      await api(server.app, {
        method: 'POST',
        url: '/users/',
        headers: admin,
        payload: { email, password: 'Member#2026', role },
      });
    }
    operator = await signIn(server.app, 'operator@example.com', 'Member#2026');
    viewer = await signIn(server.app, 'viewer@example.com', 'Member#2026');
    const seeded = await post(
      '/rules/import',
      admin,
      await multipart([{ name: 'local.rules', bytes: RULE }]),
    );
    expect(seeded.statusCode).toBe(200);
    bomb = tarBomb(4 * GiB);
  });
  afterAll(() => server.close());

  it("refuses a Viewer's bomb with 403 before reading it: memory stays flat", async () => {
    expect(bomb.length).toBeLessThan(8 * MiB);
    const body = await multipart(
      Array.from({ length: 4 }, (_, i) => ({ name: `bomb-${i}.tar.gz`, bytes: bomb })),
    );
    const { result, growth } = await withPeakRss(() => post('/rules/import', viewer, body));
    expect(result.statusCode).toBe(403);
    expect(result.json()).toMatchObject({ code: 'forbidden' });
    expect(growth).toBeLessThan(50 * MiB);
    expect(await ruleCount()).toBe(1);
  });

  it("refuses an Operator's bomb with 413 naming the file and the limit; nothing changes", async () => {
    const before = { rules: await ruleCount(), groups: await groupNames() };
    const body = await multipart([
      { name: 'fine.rules', bytes: RULE.replace('9000001', '9000002') },
      { name: 'bomb.tar.gz', bytes: bomb },
      { name: 'bomb-2.tar.gz', bytes: bomb },
    ]);
    const { result, growth } = await withPeakRss(() => post('/rules/import', operator, body));
    expect(result.statusCode).toBe(413);
    expect(result.json()).toMatchObject({ code: 'payload_too_large' });
    expect(result.json<{ msg: string }>().msg).toContain('bomb.tar.gz');
    expect(result.json<{ msg: string }>().msg).toContain('256 MiB');
    // 4 GiB were on offer; the server unpacked its 256 MiB a chunk at a time.
    expect(growth).toBeLessThan(200 * MiB);
    expect({ rules: await ruleCount(), groups: await groupNames() }).toEqual(before);
    expect(await staged()).toEqual([]);
  });

  it('answers a truncated multipart body with 400, for rules and policies alike', async () => {
    const whole = rawMultipart('cut.rules', RULE.repeat(100));
    const cut = { ...whole, payload: whole.payload.subarray(0, whole.payload.length - 200) };
    const rules = await post('/rules/import', operator, cut);
    expect(rules.statusCode).toBe(400);
    expect(rules.json()).toMatchObject({ code: 'bad_request' });
    expect(rules.json<{ msg: string }>().msg).toContain('truncated');

    const policy = await api(server.app, {
      method: 'POST',
      url: '/policies/',
      headers: operator,
      payload: { name: 'cut-policy' },
    });
    expect(policy.statusCode).toBe(201);
    const id = policy.json<{ id: number }>().id;
    const conf = rawMultipart('enable.conf', '2019401\n'.repeat(100));
    const cutConf = { ...conf, payload: conf.payload.subarray(0, conf.payload.length - 100) };
    const answer = await post(`/policies/${id}/upload`, operator, cutConf);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ code: 'bad_request' });
    expect(await staged()).toEqual([]);
  });

  it('refuses a NUL in a file name, or in a policy conf file, with 422 naming it', async () => {
    const named = await post('/rules/import', operator, rawMultipart('evil\0.rules', RULE));
    expect(named.statusCode).toBe(422);
    expect(named.json<{ msg: string }>().msg).toContain('NUL character');
    expect(await groupNames()).not.toContain('evil');

    const policy = await api(server.app, {
      method: 'POST',
      url: '/policies/',
      headers: operator,
      payload: { name: 'nul-policy' },
    });
    const id = policy.json<{ id: number }>().id;
    const conf = await post(
      `/policies/${id}/upload`,
      operator,
      await multipart([{ name: 'disable.conf', bytes: '2019401\n2019\u0000402\n' }]),
    );
    expect(conf.statusCode).toBe(422);
    expect(conf.json<{ msg: string }>().msg).toContain('disable.conf line 2');
    const stored = await api(server.app, { url: `/policies/${id}`, headers: operator });
    expect(stored.json<{ matchers: unknown[] }>().matchers).toEqual([]);
  });

  it("refuses a Viewer's policy upload, and another organization's policy, before the body", async () => {
    const policy = await api(server.app, {
      method: 'POST',
      url: '/policies/',
      headers: operator,
      payload: { name: 'viewer-policy' },
    });
    const id = policy.json<{ id: number }>().id;
    const body = await multipart([{ name: 'enable.conf', bytes: '2019401\n' }]);
    expect((await post(`/policies/${id}/upload`, viewer, body)).statusCode).toBe(403);
    expect((await post(`/policies/${id + 1000}/upload`, operator, body)).statusCode).toBe(404);
    expect((await post('/policies/abc/upload', operator, body)).statusCode).toBe(422);
  });

  it('holds imported rules to the length POST /rules/ takes, naming the file and line', async () => {
    const long = `alert tcp any any -> any any (msg:"${'x'.repeat(RULE_TEXT_MAX)}"; sid:9000003; rev:1;)`;
    const typed = await api(server.app, {
      method: 'POST',
      url: '/rules/',
      headers: operator,
      payload: { text: long },
    });
    expect(typed.statusCode).toBe(422);

    const text = `${RULE.replace('9000001', '9000004')}${long}\n`;
    const files = [{ name: 'long.rules', bytes: text }];
    const strict = await post('/rules/import?strict=true', operator, await multipart(files));
    expect(strict.statusCode).toBe(422);
    expect(strict.json<{ msg: string }>().msg).toContain('long.rules line 2');
    expect(await groupNames()).not.toContain('long');

    const lenient = await post('/rules/import', operator, await multipart(files));
    expect(lenient.statusCode).toBe(200);
    const report = lenient.json<{
      added: number;
      rejected: { file: string; line: number; msg: string }[];
    }>();
    expect(report.added).toBe(1);
    expect(report.rejected.map(({ file, line }) => ({ file, line }))).toEqual([
      { file: 'long.rules', line: 2 },
    ]);
    expect(report.rejected[0]?.msg).toContain(`more than the ${RULE_TEXT_MAX} a rule may have`);
  });
});
