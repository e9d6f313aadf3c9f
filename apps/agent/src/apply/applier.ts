// Bundle sync: pull the bundle (ETag-cached), write it atomically, run the reload commands and
// report the outcome. Triggers (heartbeat, push event) are merged: one sync runs at a time and
// at most one more is queued. A sync that fails (the server unreachable or too busy to answer
// in time) is tried again after a back-off of 0.5-1 s doubling to 30 s, not only at the next
// heartbeat: a fleet-wide change that overloads the server lands seconds later, not 30 s. The bundle is always asked with the ETag of the files on disk:
// the server answers 304 unless they are stale or the console asked for a flush, so a full
// answer is always written and applied, and a 304 only applies files not yet applied. A version
// whose reload failed is not re-run on every heartbeat, only after `retryFailedMs` (or when the
// server sends the bundle again: a flush).

import type {
  AgentBundle,
  AgentVersions,
  FirewallDrift,
  FirewallHitsReport,
} from '@palisade/contract';
import type { Logger } from 'pino';
import path from 'node:path';
import { z } from 'zod';
import type { AgentApi, AppliedReport } from '../client/api.js';
import { backoffDelay, type BackoffOptions } from '../client/backoff.js';
import { readJsonIfExists, writeJsonAtomic } from '../fs/atomic.js';
import { BUNDLE_FILES, renderBundle } from '../bundle/render.js';
import {
  readBundleManifest,
  removeStaleTemps,
  writeBundleFiles,
  type BundleManifest,
} from '../bundle/write.js';
import { DEFAULT_RESTORE_COMMAND, FirewallConfirm, type Rollback } from './confirm.js';
import { FirewallDriftWatch } from './drift.js';
import { runReloadCommands } from './reload.js';

export interface Versions {
  config_version: number;
  policy_version: number;
}

export interface SyncTrigger {
  /** The server's versions, when the trigger told them. */
  remote?: Versions;
}

export interface ApplierOptions {
  api: AgentApi;
  outputDir: string;
  stateDir: string;
  reloadCommands: readonly string[];
  reloadTimeoutMs: number;
  log: Logger;
  retryFailedMs?: number;
  /** Back-off before a failed sync is tried again (default SYNC_RETRY). */
  syncRetry?: BackoffOptions;
  /** Called with the rules text of every bundle written (the simulation reads it). */
  onRules?: (rules: string) => void;
  /**
   * A simulated device of a fleet with nothing to reload: its bundle is kept in memory, never
   * written, and what it applied is not saved. Writing 5,000 devices' files (and their state)
   * on every fleet-wide change was most of a fleet's work; no program reads them.
   */
  inMemory?: boolean;
  /**
   * Seconds a firewall change waits for contact with the server before the previous ruleset is
   * restored (0 or absent: never).
   */
  firewallConfirmMs?: number;
  /** Applies nftables.nft.previous (default `nft -f nftables.nft.previous`). */
  firewallRestoreCommand?: string;
  /** The nft program that lists Palisade's table and re-applies it on drift (default `nft`). */
  nft?: string;
}

/** Back-off of a sync that failed: 0.5–1 s, doubling to at most 30 s (the heartbeat's period). */
export const SYNC_RETRY: BackoffOptions = { baseMs: 1000, maxMs: 30_000 };

const AppliedState = z.object({
  config_version: z.number().int().nullable(),
  policy_version: z.number().int().nullable(),
  last_error: z.string().nullable(),
});

export function sameVersions(a: AgentVersions | Versions, b: AgentVersions | Versions): boolean {
  return a.config_version === b.config_version && a.policy_version === b.policy_version;
}

export class Applier {
  private local: AgentVersions = { config_version: null, policy_version: null };
  private error: string | null = null;
  private manifest: BundleManifest | undefined;
  private failed: { versions: Versions; at: number } | undefined;
  /** The last apply's report until the server has acknowledged it. */
  private unreported: AppliedReport | undefined;
  private running: Promise<void> | undefined;
  private queued: SyncTrigger | undefined;
  private applying = false;
  private readonly stateFile: string;
  /** Syncs failed in a row, and the timer of the next try. */
  private failures = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Held while files are written and applied, and while a firewall change is taken back. */
  private applyLock: Promise<unknown> = Promise.resolve();
  readonly confirm: FirewallConfirm | undefined;
  /** Palisade's table as loaded against as applied: where a reload command loads the script. */
  readonly drift: FirewallDriftWatch | undefined;

  constructor(private readonly options: ApplierOptions) {
    this.stateFile = path.join(options.stateDir, 'applied.json');
    const windowMs = options.firewallConfirmMs ?? 0;
    // Only where a reload command loads the script: a device whose firewall is managed some
    // other way must never have Palisade's previous ruleset loaded behind its back.
    const appliesFirewall = options.reloadCommands.some((c) => c.includes(BUNDLE_FILES.nftables));
    if (windowMs > 0 && !options.inMemory && appliesFirewall) {
      this.confirm = new FirewallConfirm({
        outputDir: options.outputDir,
        stateDir: options.stateDir,
        windowMs,
        restoreCommand: options.firewallRestoreCommand ?? DEFAULT_RESTORE_COMMAND,
        restoreTimeoutMs: options.reloadTimeoutMs,
        log: options.log,
        onRolledBack: (rollback) => this.locked(() => this.rolledBack(rollback)),
      });
    }
    if (!options.inMemory && appliesFirewall) {
      this.drift = new FirewallDriftWatch({
        outputDir: options.outputDir,
        stateDir: options.stateDir,
        nft: options.nft ?? 'nft',
        timeoutMs: options.reloadTimeoutMs,
        log: options.log,
      });
    }
  }

  /**
   * Checks the firewall for changes made outside Palisade (re-applying it), between applies;
   * not while a change awaits confirmation or is being taken back (null then).
   */
  /** The counters of Palisade's filter chains as last listed, when it was as applied. */
  firewallCounters(): FirewallHitsReport | null {
    const version = this.local.config_version;
    return version === null ? null : (this.drift?.counters(version) ?? null);
  }

  checkFirewall(): Promise<FirewallDrift | null> {
    const drift = this.drift;
    if (!drift) return Promise.resolve(null);
    return this.locked(() => (this.confirm?.settling ? Promise.resolve(null) : drift.check()));
  }

  /** Runs `work` once no other apply or rollback runs. */
  private locked<T>(work: () => Promise<T>): Promise<T> {
    const result = this.applyLock.then(work);
    this.applyLock = result.catch(() => undefined);
    return result;
  }

  /** The firewall change was taken back: the versions before it run again. */
  private async rolledBack(rollback: Rollback): Promise<void> {
    this.local = { ...rollback.previous };
    this.error = rollback.message;
    this.failed = undefined;
    await writeJsonAtomic(this.stateFile, { ...this.local, last_error: this.error });
    await this.drift?.applied();
  }

  /** A message from the server: confirms a firewall change applied before the request went. */
  contact(sentAt?: number): void {
    this.confirm?.contact(sentAt);
  }

  stop(): void {
    this.confirm?.stop();
    this.closed = true;
    clearTimeout(this.retryTimer);
  }

  async load(): Promise<void> {
    if (this.options.inMemory) return;
    const saved = AppliedState.safeParse(await readJsonIfExists(this.stateFile));
    if (saved.success) {
      this.local = {
        config_version: saved.data.config_version,
        policy_version: saved.data.policy_version,
      };
      this.error = saved.data.last_error;
    }
    await removeStaleTemps(this.options.outputDir);
    this.manifest = await readBundleManifest(this.options.outputDir);
    await this.confirm?.load();
    await this.drift?.load();
  }

  get versions(): AgentVersions {
    return { ...this.local };
  }

  get lastError(): string | null {
    return this.error;
  }

  get state(): string {
    if (this.applying) return 'applying';
    return this.error === null ? 'running' : 'error';
  }

  /** The rules text of the bundle on disk (for the simulation after a restart). */
  get rulesFile(): string {
    return path.join(this.options.outputDir, 'palisade.rules');
  }

  /** Asks for a sync; resolves when it (or the one it merged into) is done. */
  trigger(trigger: SyncTrigger): Promise<void> {
    if (this.running) {
      this.queued = { remote: trigger.remote ?? this.queued?.remote };
      return this.running;
    }
    this.running = this.loop(trigger).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Resolves when no sync is running. */
  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private async loop(first: SyncTrigger): Promise<void> {
    let next: SyncTrigger | undefined = first;
    while (next) {
      try {
        await this.syncOnce(next);
        this.failures = 0;
        clearTimeout(this.retryTimer);
      } catch (error) {
        this.failures += 1;
        const delay = backoffDelay(this.failures, this.options.syncRetry ?? SYNC_RETRY);
        this.options.log.warn(
          { err: error, attempt: this.failures, retry_ms: delay },
          'bundle sync failed; trying again',
        );
        this.retryLater(next, delay);
      }
      next = this.queued;
      this.queued = undefined;
    }
  }

  private retryLater(trigger: SyncTrigger, delay: number): void {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.trigger(trigger).catch(() => undefined);
    }, delay);
  }

  private recentlyFailed(versions: Versions): boolean {
    const retry = this.options.retryFailedMs ?? 5 * 60_000;
    return (
      this.failed !== undefined &&
      sameVersions(this.failed.versions, versions) &&
      Date.now() - this.failed.at < retry
    );
  }

  private refused(versions: Versions): boolean {
    if (!this.confirm?.isRefused(versions.config_version)) return false;
    this.options.log.debug(versions, 'firewall change rolled back earlier: not applied again');
    return true;
  }

  private async syncOnce(trigger: SyncTrigger, etag = this.manifest?.etag ?? null): Promise<void> {
    const { api } = this.options;
    const answer = await api.bundle(etag);
    if (answer.status === 'not-modified') {
      if (!this.manifest || etag === null) {
        if (etag === null)
          throw new Error('the server answered 304 to a bundle request without an ETag');
        await this.syncOnce(trigger, null);
        return;
      }
      const versions: Versions = this.manifest;
      if (sameVersions(versions, this.local) || this.recentlyFailed(versions)) {
        // Applied, but its report was lost (the sync failed on it and is tried again): without
        // this the server learnt of the apply only from the next heartbeat, up to 30 s later.
        if (this.unreported) await this.report(this.unreported);
        return;
      }
      if (this.refused(versions)) return;
      const report = await this.locked(() => this.apply(versions));
      await this.report(report);
      return;
    }
    const { bundle } = answer;
    const versions = {
      config_version: bundle.config_version,
      policy_version: bundle.policy_version,
    };
    if (this.refused(versions)) {
      // A new policy while the firewall change stays refused: apply it, keeping the firewall
      // that runs. The heartbeat reports the new policy version beside the old config version,
      // and the rollback stays the last error.
      if (versions.policy_version === this.local.policy_version || !this.confirm) return;
      const running = await this.confirm.runningScript();
      await this.locked(() =>
        this.apply(versions, { ...bundle, nftables: running }, answer.etag, true),
      );
      return;
    }
    const report = await this.locked(() => this.apply(versions, bundle, answer.etag));
    await this.report(report);
  }

  /** Sends an apply's report; kept until the server has it, to be sent again by a retry. */
  private async report(report: AppliedReport): Promise<void> {
    this.unreported = report;
    await this.options.api.applied(report);
    if (this.unreported === report) this.unreported = undefined;
  }

  /** Writes the bundle (when one came), runs the reload commands, records the outcome. */
  private async apply(
    versions: Versions,
    bundle?: AgentBundle,
    etag: string | null = null,
    /** The bundle's config version was rolled back: only its policy is taken. */
    policyOnly = false,
  ): Promise<AppliedReport> {
    const { log } = this.options;
    let writeError: string | undefined;
    let firewallChange = false;
    if (bundle) {
      try {
        if (!policyOnly) firewallChange = (await this.confirm?.prepare(bundle.nftables)) ?? false;
        this.manifest = this.options.inMemory
          ? { ...versions, etag, files: [], written_at: new Date().toISOString() }
          : await writeBundleFiles(this.options.outputDir, renderBundle(bundle), {
              ...versions,
              etag,
            });
        this.options.onRules?.(bundle.rules);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        writeError = `writing the bundle failed: ${reason}`;
      }
    }

    this.applying = true;
    log.info(versions, 'applying bundle');
    const result = writeError
      ? { ok: false as const, error: writeError }
      : await runReloadCommands(this.options.reloadCommands, {
          cwd: this.options.outputDir,
          timeoutMs: this.options.reloadTimeoutMs,
          env: {
            PALISADE_OUTPUT_DIR: this.options.outputDir,
            PALISADE_CONFIG_VERSION: String(versions.config_version),
            PALISADE_POLICY_VERSION: String(versions.policy_version),
          },
        });
    this.applying = false;
    // Whatever the commands left loaded (a failed `nft -f` changes nothing) is what was applied.
    if (!writeError) await this.drift?.applied();
    const before = this.local;
    if (result.ok && policyOnly) {
      this.local = {
        config_version: this.local.config_version,
        policy_version: versions.policy_version,
      };
      log.info(versions, 'bundle applied but for its firewall, which was rolled back');
    } else if (result.ok) {
      this.local = { ...versions };
      this.error = null;
      this.failed = undefined;
      log.info(versions, 'bundle applied');
    } else {
      this.error = result.error;
      this.failed = { versions, at: Date.now() };
      log.error({ ...versions, error: result.error }, 'applying the bundle failed');
    }
    if (!this.options.inMemory) {
      await writeJsonAtomic(this.stateFile, { ...this.local, last_error: this.error });
    }
    if (result.ok && firewallChange) await this.confirm?.arm(versions, before);
    return { ...versions, ok: result.ok, error: result.ok ? null : result.error.slice(0, 8000) };
  }
}
