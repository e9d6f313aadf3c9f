import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { migrate } from './db/migrate.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  createScratchDatabase,
  signIn,
  startTestServer,
  type TestServer,
} from './test/harness.js';

describe('the API around the domain', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers health and readiness without a token', async () => {
    expect((await api(server.app, { url: '/health' })).json()).toEqual({ status: 'ok' });
    expect((await api(server.app, { url: '/ready' })).json()).toEqual({ status: 'ok' });
  });

  it('publishes an OpenAPI document carrying the Role enumeration', async () => {
    const doc = (await api(server.app, { url: '/openapi.json' })).json<{
      openapi: string;
      paths: Record<string, unknown>;
      components: { schemas: Record<string, { enum?: string[] }> };
    }>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.components.schemas['Role']?.enum).toEqual(['Administrator', 'Operator', 'Viewer']);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/login/access-token',
        '/api/v1/users/',
        '/api/v1/users/{id}',
        '/api/v1/users/open',
      ]),
    );
  });

  it('gives component versions to signed-in users only', async () => {
    expect((await api(server.app, { url: '/components' })).statusCode).toBe(401);
    const headers = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const components = (await api(server.app, { url: '/components', headers })).json<{
      packages: Record<string, { installed: string; registry: string }>;
    }>();
    expect(Object.keys(components.packages)).toEqual(
      expect.arrayContaining(['server', 'console', 'agent']),
    );
    expect(components.packages['server']?.installed).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('sends security headers and a request id on every answer', async () => {
    const response = await api(server.app, {
      url: '/health',
      headers: { 'x-request-id': 'trace-me-42' },
    });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-request-id']).toBe('trace-me-42');
  });

  it('refuses a body over the limit with 413 and a message', async () => {
    const response = await api(server.app, {
      method: 'POST',
      url: '/users/open',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        email: 'big@example.com',
        password: 'Big#2026x',
        organization: 'x'.repeat(2_000_000),
      }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      code: 'payload_too_large',
      msg: 'Request body is too large',
    });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await api(server.app, { url: '/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'not_found' });
  });

  it('keeps migrations idempotent: a second run applies nothing', async () => {
    expect(await migrate(server.db)).toEqual([]);
  });
});

describe('serving the console', () => {
  let server: TestServer;
  let webDist: string;
  beforeAll(async () => {
    webDist = await mkdtemp(path.join(tmpdir(), 'palisade-web-'));
    await mkdir(path.join(webDist, 'assets'), { recursive: true });
    await writeFile(
      path.join(webDist, 'index.html'),
      '<!doctype html><title>Palisade console</title>',
    );
    await writeFile(path.join(webDist, 'assets', 'index-abc123.js'), 'console.log(1)');
    server = await startTestServer({}, { webDist });
    await mkdir(path.join(server.dataDir, 'public', 'assets'), { recursive: true });
    await writeFile(
      path.join(server.dataDir, 'public', 'assets', 'theme.json'),
      '{"primary":"#123456"}',
    );
  });
  afterAll(async () => {
    await server.close();
    await rm(webDist, { recursive: true, force: true });
  });

  it('returns the console for / and for any history-mode route', async () => {
    for (const url of ['/', '/devices', '/admin/users/edit/3', '/reset-password?token=abc']) {
      const response = await server.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('Palisade console');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves hashed bundles as immutable and missing assets as 404, not the console', async () => {
    const bundle = await server.app.inject({ url: '/assets/index-abc123.js' });
    expect(bundle.headers['cache-control']).toContain('immutable');
    expect((await server.app.inject({ url: '/assets/missing-abc123.js' })).statusCode).toBe(404);
    // The operator's optional files answer "none" without an error the browser would log.
    expect((await server.app.inject({ url: '/assets/custom.css' })).statusCode).toBe(204);
  });

  it("serves the operator's theme from the data folder", async () => {
    const theme = await server.app.inject({ url: '/assets/theme.json' });
    expect(theme.statusCode).toBe(200);
    expect(theme.json()).toEqual({ primary: '#123456' });
  });
});

describe('AUTH_DISABLED', () => {
  it('is off by default', () => {
    expect(loadConfig({}).authDisabled).toBe(false);
  });

  it("acts as the default organization's Administrator when on, and says so in /config", async () => {
    const server = await startTestServer({ AUTH_DISABLED: 'true' });
    try {
      expect((await api(server.app, { url: '/config' })).json()).toMatchObject({
        auth_disabled: true,
      });
      const me = await api(server.app, { url: '/users/me' });
      expect(me.json()).toMatchObject({
        email: ADMIN_EMAIL,
        role: 'Administrator',
        organization: 'Default',
      });
      expect((await api(server.app, { url: '/users/' })).statusCode).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('graceful shutdown', () => {
  it('finishes a request in flight before closing', async () => {
    const scratch = await createScratchDatabase();
    onTestFinished(() => scratch.drop());
    const dataDir = await mkdtemp(path.join(tmpdir(), 'palisade-close-'));
    onTestFinished(() => rm(dataDir, { recursive: true, force: true }));
    const app = await buildApp({
      config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
      db: scratch.db,
    });
    let reached: () => void = () => undefined;
    const handlerReached = new Promise<void>((resolve) => (reached = resolve));
    app.get('/slow', async () => {
      reached();
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { done: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const inFlight = fetch(`http://127.0.0.1:${port}/slow`);
    // Closed while the request is in its handler, however slowly a loaded machine got it there.
    await handlerReached;
    await app.close();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ done: true });
    await expect(fetch(`http://127.0.0.1:${port}/api/v1/health`)).rejects.toThrow();
  });
});
