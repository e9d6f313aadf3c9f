// "Commit confirmed" for firewall changes, as routers do it: before a bundle whose nftables script
// differs from the one on disk is written, the script on disk (the last confirmed ruleset) is kept
// as nftables.nft.previous; once the new one is applied a timer starts. Any answer from the server
// to a request sent after the apply (or a message on the push stream) confirms the change. When
// the timer fires first, the previous script is applied again (`nft -f nftables.nft.previous`),
// put back as nftables.nft, and the refused config version is remembered so that it is not applied
// again until the server sends another. The pending change is on disk (firewall-confirm.json): an
// agent restarted meanwhile gives the server a whole window again, then restores.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AgentVersions } from '@palisade/contract';
import type { Logger } from 'pino';
import { z } from 'zod';
import { isErrno, readJsonIfExists, writeFileAtomic, writeJsonAtomic } from '../fs/atomic.js';
import { BUNDLE_FILES } from '../bundle/render.js';
import { runReloadCommands } from './reload.js';

export const PREVIOUS_FIREWALL = `${BUNDLE_FILES.nftables}.previous`;
/** What "the previous ruleset" is when Palisade had none on the device: no table of its own. */
export const NO_FIREWALL_SCRIPT = 'add table inet palisade\ndelete table inet palisade\n';
export const DEFAULT_RESTORE_COMMAND = `nft -f ${PREVIOUS_FIREWALL}`;

const Versions = z.object({ config_version: z.number().int(), policy_version: z.number().int() });
const Nullable = z.object({
  config_version: z.number().int().nullable(),
  policy_version: z.number().int().nullable(),
});
const ConfirmState = z.object({
  /** The applied change awaiting contact, and the versions it replaced. */
  pending: z.object({ versions: Versions, previous: Nullable }).nullable(),
  /** The config version rolled back: not applied again until the server sends another. */
  refused: z.number().int().nullable(),
  /** The rollback until the server has it (older state files have none). */
  report: z
    .object({ config_version: z.number().int(), reason: z.string() })
    .nullable()
    .default(null),
});
type ConfirmState = z.infer<typeof ConfirmState>;

export interface Rollback {
  /** The change that was taken back. */
  versions: { config_version: number; policy_version: number };
  /** The versions running again. */
  previous: AgentVersions;
  /** For the device's last error. */
  message: string;
}

export interface FirewallConfirmOptions {
  outputDir: string;
  stateDir: string;
  /** How long a change waits for the server before it is taken back. */
  windowMs: number;
  /** Run through /bin/sh in the output folder to apply the previous ruleset. */
  restoreCommand: string;
  restoreTimeoutMs: number;
  log: Logger;
  /** Called once the previous ruleset runs again (or failed to). */
  onRolledBack: (rollback: Rollback) => Promise<void>;
}

export class FirewallConfirm {
  private state: ConfirmState = { pending: null, refused: null, report: null };
  private timer: NodeJS.Timeout | undefined;
  /** performance.now() when the timer started: only requests sent after it confirm. */
  private armedAt = Number.POSITIVE_INFINITY;
  /** A rollback runs (from its restore command until the applier has heard of it). */
  private restoring = false;
  private readonly stateFile: string;

  constructor(private readonly options: FirewallConfirmOptions) {
    this.stateFile = path.join(options.stateDir, 'firewall-confirm.json');
  }

  /** Reads the state; a change still pending from before a restart gets a whole window. */
  async load(): Promise<void> {
    const saved = ConfirmState.safeParse(await readJsonIfExists(this.stateFile));
    if (!saved.success) return;
    this.state = saved.data;
    if (this.state.pending) {
      this.options.log.warn(
        this.state.pending.versions,
        'a firewall change was not confirmed before the restart: waiting for the server again',
      );
      this.start();
    }
  }

  get pending(): boolean {
    return this.state.pending !== null;
  }

  /** A change awaits confirmation or is being taken back: what is loaded is not settled. */
  get settling(): boolean {
    return this.state.pending !== null || this.restoring;
  }

  /** The rollback to tell the server in the next heartbeat, until it is answered. */
  get report(): ConfirmState['report'] {
    return this.state.report;
  }

  /** The server answered a heartbeat that carried `report`. */
  async reported(report: NonNullable<ConfirmState['report']>): Promise<void> {
    if (this.state.report !== report) return;
    this.state.report = null;
    await this.save();
  }

  isRefused(configVersion: number): boolean {
    return this.state.refused === configVersion;
  }

  private file(name: string): string {
    return path.join(this.options.outputDir, name);
  }

  private async readIfExists(name: string): Promise<string | null> {
    try {
      return await readFile(this.file(name), 'utf8');
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return null;
      throw error;
    }
  }

  /** The firewall script on disk (what runs), or null when there is none. */
  runningScript(): Promise<string | null> {
    return this.readIfExists(BUNDLE_FILES.nftables);
  }

  /**
   * Before a bundle is written: whether its firewall script changes what runs. If so, and no
   * change is already pending (whose previous is the last confirmed ruleset), the script on disk
   * is kept as the previous one.
   */
  async prepare(nftables: string | null): Promise<boolean> {
    if (this.state.refused !== null) {
      this.state.refused = null;
      await this.save();
    }
    if (nftables === null) return false;
    const current = await this.readIfExists(BUNDLE_FILES.nftables);
    if (current !== null && current.trimEnd() === nftables.trimEnd()) return false;
    if (!this.state.pending) {
      await writeFileAtomic(this.file(PREVIOUS_FIREWALL), current ?? NO_FIREWALL_SCRIPT);
    }
    return true;
  }

  /** The change is applied: wait for the server. */
  async arm(versions: Rollback['versions'], previous: AgentVersions): Promise<void> {
    this.state.pending = { versions, previous: this.state.pending?.previous ?? previous };
    await this.save();
    this.start();
    this.options.log.info(
      { ...versions, seconds: this.options.windowMs / 1000 },
      'firewall change applied: waiting for the server to confirm it',
    );
  }

  /** An answer from the server to a request sent at `sentAt` (performance.now()). */
  contact(sentAt = performance.now()): void {
    const pending = this.state.pending;
    if (!pending || sentAt < this.armedAt) return;
    this.stopTimer();
    this.state.pending = null;
    this.options.log.info(pending.versions, 'firewall change confirmed: the server is reachable');
    this.save().catch((error: unknown) =>
      this.options.log.warn({ err: error }, 'saving the firewall confirmation failed'),
    );
  }

  stop(): void {
    this.stopTimer();
  }

  private start(): void {
    this.stopTimer();
    this.armedAt = performance.now();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.rollback().catch((error: unknown) =>
        this.options.log.error({ err: error }, 'rolling back the firewall change failed'),
      );
    }, this.options.windowMs);
  }

  private stopTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.armedAt = Number.POSITIVE_INFINITY;
  }

  private async rollback(): Promise<void> {
    if (!this.state.pending) return;
    this.restoring = true;
    try {
      await this.restore();
    } finally {
      this.restoring = false;
    }
  }

  private async restore(): Promise<void> {
    const pending = this.state.pending;
    if (!pending) return;
    const { log, outputDir, windowMs } = this.options;
    const seconds = Math.round(windowMs / 1000);
    const version = pending.versions.config_version;
    const result = await runReloadCommands([this.options.restoreCommand], {
      cwd: outputDir,
      timeoutMs: this.options.restoreTimeoutMs,
    });
    const why = `no contact with the server for ${seconds} s`;
    let message: string;
    if (result.ok) {
      const previous = await this.readIfExists(PREVIOUS_FIREWALL);
      if (previous !== null) await writeFileAtomic(this.file(BUNDLE_FILES.nftables), previous);
      message = `firewall change v${version} rolled back: ${why}`;
      log.error({ ...pending.versions, seconds }, message);
    } else {
      message = `firewall change v${version} could not be rolled back (${why}): ${result.error}`;
      log.error({ ...pending.versions, seconds, error: result.error }, message);
    }
    this.state = {
      pending: null,
      refused: version,
      report: { config_version: version, reason: message },
    };
    await this.save();
    await this.options.onRolledBack({
      versions: pending.versions,
      previous: pending.previous,
      message,
    });
  }

  private save(): Promise<void> {
    return writeJsonAtomic(this.stateFile, this.state);
  }
}
