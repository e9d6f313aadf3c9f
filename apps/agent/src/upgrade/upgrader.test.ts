import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../testing/processes.js';
import { installLayout, type InstallLayout } from './layout.js';
import { Upgrader, type UpgraderOptions } from './upgrader.js';

const NEW_BUILD = '// palisade-agent 0.2.1\nconsole.log("0.2.1");\n';
const log = pino({ level: 'silent' });

/** A server's download routes holding one build; `served` is what the file route answers. */
function releaseServer(release: { version: string; content: string; served?: string }) {
  const sha256 = createHash('sha256').update(release.content).digest('hex');
  const server = createServer((request, response) => {
    if (request.url === '/api/v1/agent/download/') {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          version: release.version,
          protocol: 1,
          files: [
            {
              name: 'palisade-agent.mjs',
              kind: 'node-module',
              node: '>=20.19',
              size: Buffer.byteLength(release.content),
              sha256,
              url: '/api/v1/agent/download/palisade-agent.mjs',
            },
          ],
        }),
      );
    } else if (request.url === '/api/v1/agent/download/palisade-agent.mjs') {
      response.end(release.served ?? release.content);
    } else {
      response.statusCode = 404;
      response.end();
    }
  });
  return new Promise<Server>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

let dir: string;
let layout: InstallLayout;
let stateDir: string;
let server: Server | undefined;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-upgrade-'));
  layout = installLayout(path.join(dir, 'opt'));
  stateDir = path.join(dir, 'state');
  await mkdir(path.join(layout.versionsDir, '0.2.0'), { recursive: true });
  await writeFile(path.join(layout.versionsDir, '0.2.0/palisade-agent.mjs'), 'old build');
  await symlink('versions/0.2.0', layout.current);
  await mkdir(stateDir);
});
afterEach(async () => {
  server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

function upgrader(options: Partial<UpgraderOptions> & { exits: number[] }) {
  const address = server?.address() as AddressInfo | undefined;
  return new Upgrader({
    server: `http://127.0.0.1:${address?.port ?? 9}`,
    stateDir,
    installDir: layout.installDir,
    flavor: 'node-module',
    agentVersion: '0.2.0',
    timeoutMs: 120_000,
    log,
    exit: (code) => options.exits.push(code),
    ...options,
  });
}

const settled = async (u: Upgrader) => {
  await new Promise((resolve) => setImmediate(resolve));
  await u.idle();
};
const stateFile = async (name: string): Promise<unknown> =>
  JSON.parse(await readFile(path.join(stateDir, name), 'utf8'));

describe('an upgrade the server asks for', () => {
  it('installs the checked build beside the old one, switches current and exits', async () => {
    server = await releaseServer({ version: '0.2.1', content: NEW_BUILD });
    const exits: number[] = [];
    const old = upgrader({ exits });
    await old.start();
    const before = Date.now();
    old.order({ id: 5, version: '0.2.1' });
    await settled(old);
    expect(exits).toEqual([0]);
    expect(await readlink(layout.current)).toBe('versions/0.2.1');
    expect(await readFile(path.join(layout.versionsDir, '0.2.1/palisade-agent.mjs'), 'utf8')).toBe(
      NEW_BUILD,
    );
    const record = (await stateFile('upgrade.json')) as { deadline: number };
    expect(record).toMatchObject({ id: 5, from: '0.2.0', to: '0.2.1' });
    expect(record.deadline * 1000).toBeGreaterThanOrEqual(before + 120_000);
    expect(record.deadline * 1000).toBeLessThanOrEqual(Date.now() + 121_000);
    expect(old.pendingReport).toBeUndefined();

    // The new version reports done with its first heartbeat, then keeps one version back.
    await mkdir(path.join(layout.versionsDir, '0.1.0'));
    const fresh = upgrader({ exits, agentVersion: '0.2.1' });
    await fresh.start();
    expect(fresh.pendingReport).toEqual({ id: 5, status: 'done' });
    await fresh.reported();
    fresh.stop();
    expect(existsSync(path.join(stateDir, 'upgrade.json'))).toBe(false);
    expect((await readdir(layout.versionsDir)).sort()).toEqual(['0.2.0', '0.2.1']);
    expect(fresh.pendingReport).toBeUndefined();
    expect(exits).toEqual([0]);
  });

  it('leaves the installation untouched when the download fails its checksum', async () => {
    server = await releaseServer({
      version: '0.2.1',
      content: NEW_BUILD,
      served: NEW_BUILD.replace('0.2.1', '6.6.6'),
    });
    const exits: number[] = [];
    const agent = upgrader({ exits });
    await agent.start();
    agent.order({ id: 6, version: '0.2.1' });
    await settled(agent);
    expect(exits).toEqual([]);
    expect(await readlink(layout.current)).toBe('versions/0.2.0');
    expect(await readdir(layout.versionsDir)).toEqual(['0.2.0']);
    expect(existsSync(path.join(stateDir, 'upgrade.json'))).toBe(false);
    expect(agent.pendingReport).toMatchObject({ id: 6, status: 'failed' });
    expect(agent.pendingReport?.error).toMatch(
      /^agent upgrade to 0\.2\.1 failed: palisade-agent\.mjs 0\.2\.1 failed its check/,
    );
    // The same order again is not retried; the error stays the device's last error.
    await agent.reported();
    agent.order({ id: 6, version: '0.2.1' });
    await settled(agent);
    expect(agent.pendingReport).toBeUndefined();
    expect(agent.lastError).toMatch(/failed its check/);
  });

  it('reports that an agent not installed by install.sh cannot upgrade itself', async () => {
    const exits: number[] = [];
    const agent = upgrader({ exits, installDir: null });
    await agent.start();
    agent.order({ id: 7, version: '0.2.1' });
    await settled(agent);
    expect(agent.pendingReport?.error).toContain('not installed by install.sh');
    expect(exits).toEqual([]);
  });

  it('ignores an order for the version it runs', async () => {
    const exits: number[] = [];
    const agent = upgrader({ exits });
    await agent.start();
    agent.order({ id: 8, version: '0.2.0' });
    await settled(agent);
    expect(agent.pendingReport).toBeUndefined();
  });
});

describe('after a restart', () => {
  it('a new version that cannot report in exits once its deadline has passed', async () => {
    const record = { id: 9, from: '0.2.0', to: '0.2.1' };
    const past = Math.floor(Date.now() / 1000) - 1;
    await writeFile(
      path.join(stateDir, 'upgrade.json'),
      JSON.stringify({ ...record, deadline: past }),
    );
    const exits: number[] = [];
    const fresh = upgrader({ exits, agentVersion: '0.2.1' });
    await fresh.start();
    await waitFor('the exit', async () => exits.length > 0);
    expect(exits).toEqual([1]);
    // The record stays for upgrade-guard, which restores the old version.
    expect(await stateFile('upgrade.json')).toMatchObject(record);
  });

  it('the restored version reports the failure the guard left, then forgets the file', async () => {
    await writeFile(
      path.join(stateDir, 'upgrade-failed.json'),
      JSON.stringify({
        id: 10,
        from: '0.2.0',
        to: '0.2.1',
        reason: 'version 0.2.1 did not report in',
      }),
    );
    const exits: number[] = [];
    const restored = upgrader({ exits });
    await restored.start();
    const error = 'agent upgrade to 0.2.1 failed: version 0.2.1 did not report in';
    expect(restored.pendingReport).toEqual({ id: 10, status: 'failed', error });
    expect(restored.lastError).toBe(error);
    await restored.reported();
    expect(existsSync(path.join(stateDir, 'upgrade-failed.json'))).toBe(false);
    expect(restored.lastError).toBe(error);
  });
});
