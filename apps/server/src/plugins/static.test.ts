import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';

const BUNDLE = `export const rows = [${Array.from({ length: 500 }, (_, i) => `"row ${i}"`).join(',')}];\n`;

/** A built console as `npm run build` leaves it: each asset beside its .br and .gz. */
async function fixtureDist(): Promise<string> {
  const dist = await mkdtemp(path.join(os.tmpdir(), 'palisade-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Palisade console</title>');
  const bundle = path.join(dist, 'assets', 'index-abc123.js');
  await writeFile(bundle, BUNDLE);
  await writeFile(`${bundle}.br`, brotliCompressSync(BUNDLE));
  await writeFile(`${bundle}.gz`, gzipSync(BUNDLE));
  await writeFile(`${bundle}.map`, '{"version":3,"sources":["src/app/main.tsx"]}');
  await writeFile(path.join(dist, 'foo.js.map'), '{"version":3,"sources":["foo.ts"]}');
  return dist;
}

describe('serving the built console', () => {
  let dist: string;
  let server: TestServer;
  beforeAll(async () => {
    dist = await fixtureDist();
    server = await startTestServer({}, { webDist: dist });
  });
  afterAll(async () => {
    await server.close();
    await rm(dist, { recursive: true, force: true });
  });

  const asset = (acceptEncoding?: string) =>
    server.app.inject({
      url: '/assets/index-abc123.js',
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('sends the precompressed brotli file to a client that accepts br', async () => {
    const response = await asset('gzip, deflate, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toContain('javascript');
    expect(response.headers['vary']).toContain('accept-encoding');
    expect(response.headers['cache-control']).toContain('immutable');
    expect(response.rawPayload.equals(brotliCompressSync(BUNDLE))).toBe(true);
  });

  it('sends the gzip file to a gzip-only client and the plain file to others', async () => {
    const gzip = await asset('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['vary']).toContain('accept-encoding');
    expect(gzip.rawPayload.equals(gzipSync(BUNDLE))).toBe(true);

    const plain = await asset();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['vary']).toContain('accept-encoding');
    expect(plain.body).toBe(BUNDLE);
  });

  it('answers source maps 404 (not the console) unless SERVE_SOURCEMAPS is set', async () => {
    for (const url of ['/foo.js.map', '/assets/index-abc123.js.map']) {
      const response = await server.app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ code: 'not_found' });
    }
    const debugging = await startTestServer({ SERVE_SOURCEMAPS: 'true' }, { webDist: dist });
    try {
      const map = await debugging.app.inject({ url: '/assets/index-abc123.js.map' });
      expect(map.statusCode).toBe(200);
      expect(map.body).toContain('src/app/main.tsx');
    } finally {
      await debugging.close();
    }
  });
});
