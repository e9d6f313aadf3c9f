// The firewall confirmation on real files and a real restore command (`cp`, standing for
// `nft -f`); only the window's timer is driven by the test. The namespace test with real nft is
// firewall-confirm.integration.test.ts.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FirewallConfirm,
  NO_FIREWALL_SCRIPT,
  PREVIOUS_FIREWALL,
  type Rollback,
} from './confirm.js';

const WINDOW_MS = 30_000;
const OLD = 'table inet palisade { chain input { tcp dport 23 drop } }\n';
const NEW = 'table inet palisade { chain output { ip daddr 10.0.0.1 drop } }\n';

let dir: string;
let rolledBack: Rollback[];
let rolled: Promise<void>;
let resolveRolled: () => void;

function confirm(): FirewallConfirm {
  return new FirewallConfirm({
    outputDir: dir,
    stateDir: dir,
    windowMs: WINDOW_MS,
    restoreCommand: `cp ${PREVIOUS_FIREWALL} restored.nft`,
    restoreTimeoutMs: 5000,
    log: pino({ level: 'silent' }),
    onRolledBack: (rollback) => {
      rolledBack.push(rollback);
      resolveRolled();
      return Promise.resolve();
    },
  });
}

const read = (name: string) => readFile(path.join(dir, name), 'utf8');
const state = async () => JSON.parse(await read('firewall-confirm.json')) as unknown;

/** What the agent does around an apply: prepare, write the new script, arm. */
async function apply(subject: FirewallConfirm, script: string, version: number): Promise<boolean> {
  const change = await subject.prepare(script);
  await writeFile(path.join(dir, 'nftables.nft'), script);
  if (change) {
    await subject.arm(
      { config_version: version, policy_version: 1 },
      { config_version: version - 1, policy_version: 1 },
    );
  }
  return change;
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-confirm-'));
  rolledBack = [];
  rolled = new Promise((resolve) => (resolveRolled = resolve));
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});

afterEach(async () => {
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

describe('firewall change confirmation', () => {
  it('restores the previous ruleset when the server is not heard from within the window', async () => {
    await writeFile(path.join(dir, 'nftables.nft'), OLD);
    const subject = confirm();
    expect(await apply(subject, NEW, 12)).toBe(true);
    expect(await read(PREVIOUS_FIREWALL)).toBe(OLD);
    vi.advanceTimersByTime(WINDOW_MS);
    await rolled;
    expect(await read('restored.nft')).toBe(OLD);
    expect(await read('nftables.nft')).toBe(OLD);
    expect(rolledBack).toEqual([
      {
        versions: { config_version: 12, policy_version: 1 },
        previous: { config_version: 11, policy_version: 1 },
        message: 'firewall change v12 rolled back: no contact with the server for 30 s',
      },
    ]);
    expect(subject.isRefused(12)).toBe(true);
    expect(await state()).toEqual({
      pending: null,
      refused: 12,
      report: { config_version: 12, reason: rolledBack[0]?.message },
    });
    // Told to the server once: a heartbeat that carried it was answered.
    const report = subject.report;
    if (report === null) throw new Error('no report');
    await subject.reported(report);
    expect(subject.report).toBeNull();
    expect(await state()).toEqual({ pending: null, refused: 12, report: null });
  });

  it('keeps a change confirmed by an answer to a request sent after it', async () => {
    await writeFile(path.join(dir, 'nftables.nft'), OLD);
    const subject = confirm();
    const sentBefore = performance.now();
    await apply(subject, NEW, 12);
    subject.contact(sentBefore); // an answer to a request sent before the apply proves nothing
    expect(subject.pending).toBe(true);
    subject.contact();
    expect(subject.pending).toBe(false);
    vi.advanceTimersByTime(WINDOW_MS * 2);
    expect(rolledBack).toEqual([]);
    expect(await read('nftables.nft')).toBe(NEW);
    await vi.waitFor(async () =>
      expect(await state()).toEqual({ pending: null, refused: null, report: null }),
    );
  });

  it('arms nothing when the script is unchanged, and a first ruleset falls back to none', async () => {
    const subject = confirm();
    expect(await apply(subject, NEW, 3)).toBe(true);
    expect(await read(PREVIOUS_FIREWALL)).toBe(NO_FIREWALL_SCRIPT);
    subject.contact();
    expect(await apply(subject, NEW, 4)).toBe(false);
    expect(subject.pending).toBe(false);
  });

  it('keeps the last confirmed ruleset as the previous one across unconfirmed changes', async () => {
    await writeFile(path.join(dir, 'nftables.nft'), OLD);
    const subject = confirm();
    await apply(subject, NEW, 12);
    await apply(subject, `${NEW}# v13\n`, 13);
    expect(await read(PREVIOUS_FIREWALL)).toBe(OLD);
    vi.advanceTimersByTime(WINDOW_MS);
    await rolled;
    expect(rolledBack[0]?.versions.config_version).toBe(13);
    expect(rolledBack[0]?.previous.config_version).toBe(11);
  });

  it('restores after a restart in the middle when the server stays silent', async () => {
    await writeFile(path.join(dir, 'nftables.nft'), OLD);
    await apply(confirm(), NEW, 12);
    vi.clearAllTimers(); // the agent stopped here

    const restarted = confirm();
    await restarted.load();
    expect(restarted.pending).toBe(true);
    vi.advanceTimersByTime(WINDOW_MS);
    await rolled;
    expect(await read('nftables.nft')).toBe(OLD);
    expect(rolledBack.map((r) => r.versions.config_version)).toEqual([12]);

    // The refused version survives a restart; any other version lifts it.
    const again = confirm();
    await again.load();
    expect(again.isRefused(12)).toBe(true);
    await again.prepare(OLD);
    expect(again.isRefused(12)).toBe(false);
  });

  it('reports a restore that fails as the device error, and refuses the version all the same', async () => {
    await writeFile(path.join(dir, 'nftables.nft'), OLD);
    const subject = new FirewallConfirm({
      outputDir: dir,
      stateDir: dir,
      windowMs: WINDOW_MS,
      restoreCommand: 'echo "nft: command not found" >&2; exit 127',
      restoreTimeoutMs: 5000,
      log: pino({ level: 'silent' }),
      onRolledBack: (rollback) => {
        rolledBack.push(rollback);
        resolveRolled();
        return Promise.resolve();
      },
    });
    await apply(subject, NEW, 12);
    vi.advanceTimersByTime(WINDOW_MS);
    await rolled;
    expect(rolledBack[0]?.message).toMatch(
      /^firewall change v12 could not be rolled back \(no contact with the server for 30 s\): .*exit code 127: nft: command not found$/,
    );
    expect(subject.isRefused(12)).toBe(true);
  });
});
