import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentApi } from '../client/api.js';
import { Applier } from './applier.js';

const BUNDLE = {
  config_version: 3,
  policy_version: 7,
  rules: 'alert tcp any any -> any 22 (msg:"SSH"; sid:1;)\n',
  thresholds: '',
  variables: { HOME_NET: '[10.0.0.0/8]' },
  nftables: null,
  routes: null,
};

let server: Server | undefined;
let dir: string | undefined;
afterEach(async () => {
  const running = server;
  server = undefined;
  if (running) {
    running.closeAllConnections();
    await new Promise((resolve) => running.close(resolve));
  }
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/**
 * A fake server for one test: signs any device in, and hands every other request, with its
 * body read, to `handle` (which answers it).
 */
async function serve(
  handle: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<string> {
  const listening = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/v1/agent/login') {
        res.end(JSON.stringify({ access_token: 't', token_type: 'bearer', expires_in: 3600 }));
        return;
      }
      handle(req, res, body);
    });
  });
  server = listening;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
}

/** An applier that syncs from `url` into a fresh folder, trying a failed sync again quickly. */
async function syncingApplier(url: string): Promise<Applier> {
  dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-applier-'));
  const applier = new Applier({
    api: new AgentApi({ server: url, deviceId: 1, password: 'p', agentVersion: '9.9.9' }),
    outputDir: path.join(dir, 'out'),
    stateDir: dir,
    reloadCommands: [],
    reloadTimeoutMs: 1000,
    log: pino({ level: 'silent' }),
    syncRetry: { baseMs: 100, maxMs: 400 },
  });
  await applier.load();
  return applier;
}

describe('bundle sync', () => {
  it('tries a failed sync again by itself, without waiting for the next heartbeat', async () => {
    let pulls = 0;
    const applied: unknown[] = [];
    const url = await serve((req, res, body) => {
      if (req.url === '/api/v1/agent/bundle') {
        pulls += 1;
        // The first pull finds the server too busy: its connection is dropped.
        if (pulls === 1) return req.socket.destroy();
        res.setHeader('etag', '"3-7"');
        return res.end(JSON.stringify(BUNDLE));
      }
      applied.push(JSON.parse(body));
      res.end(JSON.stringify({ msg: 'Recorded' }));
    });
    const applier = await syncingApplier(url);
    try {
      // One signal only: the push that the failed pull followed.
      await applier.trigger({ remote: { config_version: 3, policy_version: 7 } });
      expect(applied).toEqual([]);
      await expect.poll(() => applied, { timeout: 5000 }).toHaveLength(1);
      expect(applied[0]).toMatchObject({ config_version: 3, policy_version: 7, ok: true });
      expect(applier.versions).toEqual({ config_version: 3, policy_version: 7 });
      expect(pulls).toBe(2);
    } finally {
      applier.stop();
      await applier.idle();
    }
  });
});

describe('apply reports', () => {
  it('sends a lost apply report again, without waiting for the next heartbeat', async () => {
    let pulls = 0;
    let reports = 0;
    const applied: unknown[] = [];
    const url = await serve((req, res, body) => {
      if (req.url === '/api/v1/agent/bundle') {
        pulls += 1;
        if (req.headers['if-none-match'] === '"3-7"') {
          res.statusCode = 304;
          return res.end();
        }
        res.setHeader('etag', '"3-7"');
        return res.end(JSON.stringify(BUNDLE));
      }
      reports += 1;
      // The first report's connection drops before the server has read it.
      if (reports === 1) return req.socket.destroy();
      applied.push(JSON.parse(body));
      res.end(JSON.stringify({ msg: 'Recorded' }));
    });
    const applier = await syncingApplier(url);
    try {
      await applier.trigger({ remote: { config_version: 3, policy_version: 7 } });
      expect(applier.versions).toEqual({ config_version: 3, policy_version: 7 });
      expect(applied).toEqual([]);
      // The retry's pull is answered "not modified": the bundle runs, its report goes again.
      await expect.poll(() => applied, { timeout: 5000 }).toHaveLength(1);
      expect(applied[0]).toMatchObject({ config_version: 3, policy_version: 7, ok: true });
      expect(pulls).toBe(2);
      // Once acknowledged, it is not sent again.
      await applier.trigger({ remote: { config_version: 3, policy_version: 7 } });
      expect(reports).toBe(2);
    } finally {
      applier.stop();
      await applier.idle();
    }
  });
});

const applier = (reloadCommands: string[], firewallConfirmMs = 120_000) =>
  new Applier({
    // Never called: only the construction is looked at.
    api: {} as AgentApi,
    outputDir: os.tmpdir(),
    stateDir: os.tmpdir(),
    reloadCommands,
    reloadTimeoutMs: 1000,
    log: pino({ level: 'silent' }),
    firewallConfirmMs,
  });

describe('which agents confirm firewall changes', () => {
  it('those whose reload commands load nftables.nft, unless the window is 0', () => {
    expect(applier(['test ! -e nftables.nft || nft -f nftables.nft']).confirm).toBeDefined();
    expect(applier(['nft -f nftables.nft'], 0).confirm).toBeUndefined();
  });

  it('never those that leave the firewall to something else', () => {
    expect(applier(['suricatasc -c reload-rules']).confirm).toBeUndefined();
    expect(applier([]).confirm).toBeUndefined();
  });
});
