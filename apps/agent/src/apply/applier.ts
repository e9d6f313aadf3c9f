// Bundle sync: pull the bundle (ETag-cached), write it atomically, run the reload commands and
// report the outcome. Triggers (heartbeat, push event) are merged: one sync runs at a time and
// at most one more is queued. The bundle is always asked with the ETag of the files on disk:
// the server answers 304 unless they are stale or the console asked for a flush, so a full
// answer is always written and applied, and a 304 only applies files not yet applied. A version
// whose reload failed is not re-run on every heartbeat, only after `retryFailedMs` (or when the
// server sends the bundle again: a flush).

import type { AgentVersions } from '@palisade/contract';
import type { Logger } from 'pino';
import path from 'node:path';
import { z } from 'zod';
import type { AgentApi } from '../client/api.js';
import { readJsonIfExists, writeJsonAtomic } from '../fs/atomic.js';
import { renderBundle } from '../bundle/render.js';
import {
  readBundleManifest,
  removeStaleTemps,
  writeBundleFiles,
  type BundleManifest,
} from '../bundle/write.js';
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
  /** Called with the rules text of every bundle written (the simulation reads it). */
  onRules?: (rules: string) => void;
  /**
   * A simulated device of a fleet with nothing to reload: its bundle is kept in memory, never
   * written, and what it applied is not saved. Writing 5,000 devices' files (and their state)
   * on every fleet-wide change was most of a fleet's work; no program reads them.
   */
  inMemory?: boolean;
}

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
  private running: Promise<void> | undefined;
  private queued: SyncTrigger | undefined;
  private applying = false;
  private readonly stateFile: string;

  constructor(private readonly options: ApplierOptions) {
    this.stateFile = path.join(options.stateDir, 'applied.json');
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
      } catch (error) {
        this.options.log.warn({ err: error }, 'bundle sync failed; retrying at the next signal');
      }
      next = this.queued;
      this.queued = undefined;
    }
  }

  private recentlyFailed(versions: Versions): boolean {
    const retry = this.options.retryFailedMs ?? 5 * 60_000;
    return (
      this.failed !== undefined &&
      sameVersions(this.failed.versions, versions) &&
      Date.now() - this.failed.at < retry
    );
  }

  private async syncOnce(trigger: SyncTrigger, etag = this.manifest?.etag ?? null): Promise<void> {
    const { api, log } = this.options;
    const answer = await api.bundle(etag);
    let versions: Versions;
    let writeError: string | undefined;
    if (answer.status === 'not-modified') {
      if (!this.manifest || etag === null) {
        if (etag === null)
          throw new Error('the server answered 304 to a bundle request without an ETag');
        await this.syncOnce(trigger, null);
        return;
      }
      versions = this.manifest;
      if (sameVersions(versions, this.local) || this.recentlyFailed(versions)) return;
    } else {
      const { bundle } = answer;
      versions = { config_version: bundle.config_version, policy_version: bundle.policy_version };
      try {
        this.manifest = this.options.inMemory
          ? { ...versions, etag: answer.etag, files: [], written_at: new Date().toISOString() }
          : await writeBundleFiles(this.options.outputDir, renderBundle(bundle), {
              ...versions,
              etag: answer.etag,
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
    if (result.ok) {
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
    await api.applied({
      ...versions,
      ok: result.ok,
      error: result.ok ? null : result.error.slice(0, 8000),
    });
  }
}
