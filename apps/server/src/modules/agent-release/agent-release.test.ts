import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AgentRelease, AgentReleaseListing, ErrorResponse } from '@palisade/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELEASE_FILES, writeAgentRelease } from '../../test/agent-release.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('agent downloads', () => {
  let server: TestServer;
  let releaseDir: string;
  let manifest: AgentRelease;

  const get = (url: string, headers: Record<string, string> = {}) =>
    server.app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    server = await startTestServer();
    releaseDir = path.join(server.dataDir, 'agent-release');
  });
  afterAll(() => server.close());

  it('answers 404 agent_release_missing while the server carries no build', async () => {
    for (const url of [
      '/api/v1/agent/download/',
      '/api/v1/agent/download/palisade-agent.mjs',
      '/api/v1/agent/download/palisade-agent.mjs.sha256',
      '/api/v1/agent/install.sh',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json<ErrorResponse>()).toEqual({
        code: 'agent_release_missing',
        msg: 'This server carries no agent build: run npm run build',
      });
    }
  });

  it('lists the manifest with a download path per file, to anyone', async () => {
    manifest = await writeAgentRelease(releaseDir);
    const response = await get('/api/v1/agent/download/');
    expect(response.statusCode).toBe(200);
    expect(response.json<AgentReleaseListing>()).toEqual({
      ...manifest,
      files: manifest.files.map((file) => ({
        ...file,
        url: `/api/v1/agent/download/${file.name}`,
      })),
    });
  });

  it('sends each file with the bytes, size and checksum the manifest states', async () => {
    for (const file of manifest.files) {
      const response = await get(`/api/v1/agent/download/${file.name}`);
      expect(response.statusCode, file.name).toBe(200);
      expect(response.rawPayload).toEqual(RELEASE_FILES[file.name]?.bytes);
      expect(sha256(response.rawPayload)).toBe(file.sha256);
      expect(Number(response.headers['content-length'])).toBe(file.size);
      expect(response.headers.etag).toBe(`"${file.sha256}"`);
      expect(response.headers['content-type']).toBe(
        file.name.endsWith('.sh') ? 'text/x-shellscript' : 'application/octet-stream',
      );

      const checksum = await get(`/api/v1/agent/download/${file.name}.sha256`);
      expect(checksum.statusCode).toBe(200);
      expect(checksum.body).toBe(`${file.sha256}  ${file.name}\n`);
    }
  });

  it('is not compressed, even for a client that accepts it', async () => {
    const response = await get('/api/v1/agent/download/palisade-agent.mjs', {
      'accept-encoding': 'br, gzip',
    });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.rawPayload).toEqual(RELEASE_FILES['palisade-agent.mjs']?.bytes);
  });

  it('answers HEAD with the headers alone', async () => {
    const file = manifest.files[1]!;
    const response = await server.app.inject({
      method: 'HEAD',
      url: `/api/v1/agent/download/${file.name}`,
    });
    expect(response.statusCode).toBe(200);
    expect(Number(response.headers['content-length'])).toBe(file.size);
    expect(response.rawPayload.length).toBe(0);
  });

  it('serves install.sh at the short address of the one-liner too', async () => {
    const response = await get('/api/v1/agent/install.sh');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/x-shellscript');
    expect(response.rawPayload).toEqual(RELEASE_FILES['install.sh']?.bytes);
  });

  it('answers a fetch of the same file again with 304 Not Modified', async () => {
    const file = manifest.files[0]!;
    const again = await get(`/api/v1/agent/download/${file.name}`, {
      'if-none-match': `"${file.sha256}"`,
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const changed = await get(`/api/v1/agent/download/${file.name}`, {
      'if-none-match': `"${'0'.repeat(64)}"`,
    });
    expect(changed.statusCode).toBe(200);
  });

  it('serves only the names the manifest lists: others and path tricks are 404', async () => {
    await writeFile(path.join(releaseDir, 'notes.txt'), 'not part of the release');
    for (const name of [
      'notes.txt',
      'manifest.json',
      'nope',
      '.sha256',
      'notes.txt.sha256',
      '..%2Fmanifest.json',
      '..%2F..%2F..%2Fpackage.json',
      '%2E%2E%2Fagent-release%2Finstall.sh',
      '%2Fetc%2Fpasswd',
      'install.sh%00',
      'install.sh%2F',
    ]) {
      const response = await get(`/api/v1/agent/download/${name}`);
      expect(response.statusCode, name).toBe(404);
      expect(response.json<ErrorResponse>().code, name).toBe('not_found');
    }
    const outside = await get('/api/v1/agent/download/../../../../etc/passwd');
    expect(outside.statusCode).toBe(404);
    for (const malformed of ['%C0%AE%C0%AE%2Fmanifest.json', '%E9', 'install%2']) {
      const response = await get(`/api/v1/agent/download/${malformed}`);
      expect(response.statusCode, malformed).toBe(400);
      expect(response.json<ErrorResponse>().code).toBe('bad_request');
    }
  });

  it('picks up a rebuilt release without a restart', async () => {
    await writeAgentRelease(releaseDir, '0.2.1');
    const listing = await get('/api/v1/agent/download/');
    expect(listing.json<AgentRelease>().version).toBe('0.2.1');
  });

  it('does not serve a listed file that is gone or changed: the release is half there', async () => {
    await writeFile(path.join(releaseDir, 'install.sh'), '#!/bin/sh\necho rewritten, longer\n');
    await rm(path.join(releaseDir, 'palisade-agent.mjs'));
    for (const name of ['install.sh', 'palisade-agent.mjs']) {
      const response = await get(`/api/v1/agent/download/${name}`);
      expect(response.statusCode, name).toBe(404);
      expect(response.json<ErrorResponse>().code).toBe('agent_release_missing');
    }
  });

  it('treats a manifest it cannot read as no release, not as a server error', async () => {
    for (const text of ['{"version": "0.3.0", "protocol": 1, "files": [{"name": "../x"}]}', '{']) {
      await writeFile(path.join(releaseDir, 'manifest.json'), text);
      const response = await get('/api/v1/agent/download/');
      expect(response.statusCode).toBe(404);
      expect(response.json<ErrorResponse>().code).toBe('agent_release_missing');
    }
  });
});
