import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postFiles } from '../test/corpus.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../test/harness.js';

describe('compressed answers', () => {
  let server: TestServer;
  let admin: { authorization: string };
  const importRules = async (name: string, bytes: Uint8Array | string) => {
    const response = await postFiles(server.app, '/rules/import', admin, [{ name, bytes }]);
    expect(response.statusCode, response.body).toBe(200);
  };

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    // A rules page as large as a real rule set's: 2,000 rules, one page.
    const classtypes = ['trojan-activity', 'policy-violation', 'web-application-attack'];
    const rules = Array.from({ length: 2000 }, (_, i) => {
      const sid = 3_100_000 + i;
      return `alert http $HOME_NET any -> $EXTERNAL_NET any (msg:"ET TEST page rule ${sid}"; flow:established,to_server; http.uri; content:"/p${sid}"; classtype:${classtypes[i % 3]}; sid:${sid}; rev:${1 + (i % 4)};)`;
    });
    await importRules('page.rules', `${rules.join('\n')}\n`);
  });
  afterAll(() => server.close());

  const rulesPage = (acceptEncoding?: string) =>
    api(server.app, {
      method: 'GET',
      url: '/rules/?limit=5000',
      headers:
        acceptEncoding === undefined ? admin : { ...admin, 'accept-encoding': acceptEncoding },
    });

  it('sends a large rules page brotli- or gzip-compressed as asked, the same JSON unpacked', async () => {
    const plain = await rulesPage();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const rows = plain.json<{ data: unknown[] }>().data.length;
    expect(rows).toBeGreaterThan(1000);

    // A browser offers both; brotli is preferred.
    const br = await rulesPage('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5);

    const gzip = await rulesPage('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(plain.body);
    expect(gzip.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5);

    // Offered nothing we speak: the plain answer.
    expect((await rulesPage('identity')).headers['content-encoding']).toBeUndefined();
  });

  it('sends small answers as they are', async () => {
    const health = await api(server.app, {
      method: 'GET',
      url: '/health',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(health.statusCode).toBe(200);
    expect(health.headers['content-encoding']).toBeUndefined();
  });

  it('leaves the console event stream unbuffered: an event arrives while it is open', async () => {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as AddressInfo;
    const controller = new AbortController();
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/events`, {
      headers: { ...admin, 'accept-encoding': 'br, gzip' },
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('content-encoding')).toBeNull();
    if (!response.body) throw new Error('no event stream');
    const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
    const decoder = new TextDecoder();
    let received = decoder.decode((await reader.read()).value);
    expect(received).toContain('retry:');

    // A new device is news for every console of the organization.
    const created = await api(server.app, {
      method: 'POST',
      url: '/devices/',
      headers: admin,
      payload: { name: 'SSE probe', password: 'device-secret-1234' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const deadline = Date.now() + 5000;
    while (!received.includes('event: devices') && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      received += decoder.decode(value, { stream: true });
    }
    controller.abort();
    expect(received).toContain('event: devices');
  });
});
