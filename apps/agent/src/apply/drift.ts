// Firewall drift: Palisade's nftables table as it is loaded, against what the agent applied.
// Right after each apply the agent lists its own table (`nft -j list table inet palisade`: only
// its table, so other tools' tables never count), drops what the kernel changes by itself
// (handles, counter values) and keeps the SHA-256 of the rest. At each heartbeat it lists and
// hashes the table again; when the two differ, the firewall was changed outside Palisade, and the
// agent loads its script (nftables.nft, what it last applied) again. The heartbeat carries both
// hashes, whether they still differ, and when the agent last re-applied.

import type { FirewallDrift, FirewallHitsReport } from '@palisade/contract';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { z } from 'zod';
import { BUNDLE_FILES } from '../bundle/render.js';
import { readJsonIfExists, writeJsonAtomic } from '../fs/atomic.js';

/** The largest listing read: a table past this is a fault, not a ruleset. */
const MAX_LISTING_BYTES = 32 * 1024 * 1024;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the kernel changes by itself: handles go, counters keep their place but not values. */
function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'handle') continue;
    out[key] = key === 'counter' && isRecord(inner) ? {} : strip(inner);
  }
  return out;
}

/**
 * The statements of an `nft -j` listing as they define the table: without `metainfo` (the nft
 * version), handles and counter values. Pure.
 */
export function normaliseListing(listing: unknown): unknown[] {
  const items = isRecord(listing) && Array.isArray(listing.nftables) ? listing.nftables : [];
  return items.filter((item) => !(isRecord(item) && 'metainfo' in item)).map(strip);
}

/** SHA-256 of the normalised listing. */
export function listingSha256(listing: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(normaliseListing(listing)))
    .digest('hex');
}

export type Listing = { ok: true; listing: unknown } | { ok: false; error: string };

function run(nft: string, args: string[], timeoutMs: number) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      nft,
      args,
      { timeout: timeoutMs, maxBuffer: MAX_LISTING_BYTES, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr: stderr || (error?.message ?? '') });
      },
    );
  });
}

/** Palisade's table as nft lists it; `listing: null` when the table does not exist. */
export async function listTable(nft: string, timeoutMs: number): Promise<Listing> {
  const result = await run(nft, ['-j', 'list', 'table', 'inet', 'palisade'], timeoutMs);
  if (result.code !== 0) {
    if (/No such file or directory/.test(result.stderr)) return { ok: true, listing: null };
    return { ok: false, error: result.stderr.trim().slice(0, 500) };
  }
  try {
    return { ok: true, listing: JSON.parse(result.stdout) as unknown };
  } catch {
    return { ok: false, error: 'nft -j answered something other than JSON' };
  }
}

const DriftState = z.object({
  applied_sha256: z.string().nullable(),
  reapplied_at: z.string().nullable(),
  /** When the table was last loaded (its counters count from then); older states have none. */
  loaded_at: z.string().nullable().default(null),
});
type DriftState = z.infer<typeof DriftState>;

export interface FirewallDriftOptions {
  outputDir: string;
  stateDir: string;
  /** The nft program (default `nft`). */
  nft: string;
  timeoutMs: number;
  log: Logger;
}

export class FirewallDriftWatch {
  /** undefined: no apply seen yet (an agent upgraded from a version without this state). */
  private state: DriftState | undefined;
  /** A listing the re-apply could not bring back: not re-applied again until it changes. */
  private stuckOn: string | null | undefined;
  private readonly stateFile: string;
  /** The listing of the last check, for whoever reads more of it (rule counters). */
  lastListing: unknown = null;

  constructor(private readonly options: FirewallDriftOptions) {
    this.stateFile = path.join(options.stateDir, 'firewall-drift.json');
  }

  async load(): Promise<void> {
    const saved = DriftState.safeParse(await readJsonIfExists(this.stateFile));
    if (saved.success) this.state = saved.data;
  }

  private async managed(): Promise<boolean> {
    try {
      await access(path.join(this.options.outputDir, BUNDLE_FILES.nftables));
      return true;
    } catch {
      return false;
    }
  }

  /** The table's hash now; undefined when nft cannot say. */
  private async loadedSha256(): Promise<string | null | undefined> {
    const listed = await listTable(this.options.nft, this.options.timeoutMs);
    if (!listed.ok) {
      this.options.log.warn({ error: listed.error }, 'listing the firewall table failed');
      return undefined;
    }
    this.lastListing = listed.listing;
    return listed.listing === null ? null : listingSha256(listed.listing);
  }

  /** Right after an apply ran: what is loaded now is what Palisade applied. */
  async applied(): Promise<void> {
    if (!(await this.managed())) return;
    const loaded = await this.loadedSha256();
    if (loaded === undefined) return;
    this.state = {
      applied_sha256: loaded,
      reapplied_at: this.state?.reapplied_at ?? null,
      loaded_at: new Date().toISOString(),
    };
    this.stuckOn = undefined;
    await writeJsonAtomic(this.stateFile, this.state);
  }

  /**
   * Compares the table with what was applied and re-applies the script when it was changed
   * outside Palisade. Null while Palisade manages no firewall here, or nft cannot list it.
   */
  async check(): Promise<FirewallDrift | null> {
    if (!(await this.managed())) return null;
    const loaded = await this.loadedSha256();
    if (loaded === undefined) return null;
    if (this.state === undefined) {
      await this.applied();
      if (this.state === undefined) return null;
    }
    const state: DriftState = this.state;
    const applied = state.applied_sha256;
    if (loaded === applied || loaded === this.stuckOn) {
      return {
        loaded_sha256: loaded,
        applied_sha256: applied,
        drift: loaded !== applied,
        ...at(state),
      };
    }
    const { log, nft, outputDir, timeoutMs } = this.options;
    log.warn(
      { loaded_sha256: loaded, applied_sha256: applied },
      'firewall changed outside Palisade: applying nftables.nft again',
    );
    const script = path.join(outputDir, BUNDLE_FILES.nftables);
    const result = await run(nft, ['-f', script], timeoutMs);
    if (result.code !== 0) {
      log.error({ error: result.stderr.trim().slice(0, 500) }, 're-applying nftables.nft failed');
    }
    const after = await this.loadedSha256();
    const now = new Date().toISOString();
    this.state = { ...state, reapplied_at: now, loaded_at: now };
    await writeJsonAtomic(this.stateFile, this.state);
    const drift = after !== applied;
    this.stuckOn = drift ? after : undefined;
    if (drift) log.error('the firewall still differs from what Palisade applied');
    else log.warn('firewall re-applied: it is again as Palisade applied it');
    return {
      loaded_sha256: after ?? null,
      applied_sha256: applied,
      drift,
      reapplied_at: this.state.reapplied_at,
    };
  }

  /**
   * The counters of the last listing's filter chains, when it was the table as applied; null
   * otherwise (a table changed outside Palisade has rules the server cannot place).
   */
  counters(configVersion: number): FirewallHitsReport | null {
    const loadedAt = this.state?.loaded_at;
    if (!loadedAt || this.lastListing === null) return null;
    if (listingSha256(this.lastListing) !== this.state?.applied_sha256) return null;
    return {
      config_version: configVersion,
      loaded_at: loadedAt,
      chains: chainCounters(this.lastListing),
    };
  }
}

type Chains = FirewallHitsReport['chains'];
const FILTER_CHAINS = new Set(['input', 'forward', 'output']);

/** Each rule of Palisade's filter chains in listing order: [packets, bytes], or null. Pure. */
export function chainCounters(listing: unknown): Chains {
  const chains: Chains = { input: [], forward: [], output: [] };
  const items = isRecord(listing) && Array.isArray(listing.nftables) ? listing.nftables : [];
  for (const item of items) {
    const rule = isRecord(item) ? item.rule : undefined;
    if (!isRecord(rule) || rule.table !== 'palisade' || typeof rule.chain !== 'string') continue;
    if (!FILTER_CHAINS.has(rule.chain)) continue;
    const expr: unknown[] = Array.isArray(rule.expr) ? (rule.expr as unknown[]) : [];
    const found = expr.find((e) => isRecord(e) && isRecord(e.counter));
    const counter = isRecord(found) && isRecord(found.counter) ? found.counter : null;
    const packets = counter?.packets;
    const bytes = counter?.bytes;
    chains[rule.chain as keyof Chains].push(
      typeof packets === 'number' && typeof bytes === 'number' ? [packets, bytes] : null,
    );
  }
  return chains;
}

function at(state: DriftState): { reapplied_at: string | null } {
  return { reapplied_at: state.reapplied_at };
}
