// Agent upgrades (docs/agent-protocol.md, "Versions and compatibility"). The server asks for a
// version in a heartbeat's answer; the agent downloads its flavor's build, checks it, installs it
// beside the running one, writes upgrade.json, switches `current` and exits for its supervisor
// (systemd) to start the new one. The new one reports `done` with its first heartbeat and prunes
// old versions; if it cannot report in before the deadline it exits non-zero, and upgrade-guard
// (run before every start) restores the old one, which reports `failed` with the guard's reason.

import type { AgentFlavor, AgentUpgradeOrder, AgentUpgradeReport } from '@palisade/contract';
import { rm } from 'node:fs/promises';
import type { Logger } from 'pino';
import { fetchListing, installVersion, UpgradeError } from './download.js';
import {
  installLayout,
  readStateFile,
  UpgradeFailed,
  upgradeFiles,
  UpgradeInProgress,
  writeStateFile,
} from './layout.js';
import { currentVersion, pruneVersions, switchCurrent } from './swap.js';

export interface UpgraderOptions {
  server: string;
  stateDir: string;
  /** Where install.sh put the agent (versions/, current); null: not installed by it. */
  installDir: string | null;
  /** null: run from the repository, not from a release file. */
  flavor: AgentFlavor | null;
  agentVersion: string;
  /** How long a new version has to report in before it is given up (upgrade-timeout). */
  timeoutMs: number;
  log: Logger;
  /** Stops the agent and ends the process with `code`: the supervisor starts `current` again. */
  exit: (code: number) => void;
}

/** What the next heartbeat carries, and what to do once the server has it. */
interface Report {
  body: AgentUpgradeReport;
  afterSent: () => Promise<void>;
}

export class Upgrader {
  private report: Report | undefined;
  private error: string | null = null;
  private readonly tried = new Set<number>();
  private running: Promise<void> | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private readonly files: ReturnType<typeof upgradeFiles>;

  constructor(private readonly options: UpgraderOptions) {
    this.files = upgradeFiles(options.stateDir);
  }

  /** The failure of the last upgrade, kept as the device's last error while nothing replaces it. */
  get lastError(): string | null {
    return this.error;
  }

  /** The report the next heartbeat carries, if any. */
  get pendingReport(): AgentUpgradeReport | undefined {
    return this.report?.body;
  }

  /** Picks up what an upgrade left for this start: a version to commit, or a failure to tell. */
  async start(): Promise<void> {
    const { agentVersion, log } = this.options;
    const inProgress = await readStateFile(this.files.inProgress, UpgradeInProgress);
    if (inProgress?.to === agentVersion) {
      this.awaitCommit(inProgress);
      return;
    }
    if (inProgress) {
      // The switch to `to` never happened (or was undone): this version is still the one running.
      await rm(this.files.inProgress, { force: true });
      this.fail(inProgress.id, inProgress.to, `${agentVersion} is still the version started`);
      return;
    }
    const failed = await readStateFile(this.files.failed, UpgradeFailed);
    if (failed) {
      log.error(
        { from: failed.from, to: failed.to, reason: failed.reason },
        'agent upgrade failed',
      );
      this.fail(failed.id, failed.to, failed.reason, () => rm(this.files.failed, { force: true }));
    }
  }

  /** The heartbeat that carried the pending report was answered. */
  async reported(): Promise<void> {
    const report = this.report;
    this.report = undefined;
    await report?.afterSent();
  }

  /** An upgrade the server asks for (in a heartbeat's answer). */
  order(order: AgentUpgradeOrder): void {
    if (order.version === this.options.agentVersion) return; // the server ends it by our version
    if (this.running || this.report || this.tried.has(order.id)) return;
    this.tried.add(order.id);
    this.error = null; // asked again: the last failure is no longer the news
    this.running = this.perform(order)
      .catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        this.options.log.error({ version: order.version, reason }, 'agent upgrade failed');
        this.fail(order.id, order.version, reason);
      })
      .finally(() => {
        this.running = undefined;
      });
  }

  /** Resolves when no upgrade is under way. */
  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  stop(): void {
    clearTimeout(this.deadline);
  }

  private fail(id: number, version: string, reason: string, afterSent = async () => {}): void {
    this.error = `agent upgrade to ${version} failed: ${reason}`;
    this.report = { body: { id, status: 'failed', error: this.error }, afterSent };
  }

  /** This is the new version: it stays if it reports in before the deadline, else it exits. */
  private awaitCommit(upgrade: UpgradeInProgress): void {
    const { log } = this.options;
    const left = Math.max(0, upgrade.deadline * 1000 - Date.now());
    this.deadline = setTimeout(() => {
      log.error(
        { from: upgrade.from, to: upgrade.to },
        'the new agent version could not report in before its deadline: exiting, so that the old one is restored',
      );
      this.options.exit(1);
    }, left);
    this.report = {
      body: { id: upgrade.id, status: 'done' },
      afterSent: async () => {
        clearTimeout(this.deadline);
        await rm(this.files.inProgress, { force: true });
        const { installDir } = this.options;
        const removed = installDir
          ? await pruneVersions(installLayout(installDir), [upgrade.to, upgrade.from])
          : [];
        log.info({ from: upgrade.from, to: upgrade.to, removed }, 'agent upgrade done');
      },
    };
  }

  private async perform(order: AgentUpgradeOrder): Promise<void> {
    const { server, installDir, flavor, agentVersion, log } = this.options;
    if (installDir === null) {
      throw new UpgradeError(
        'not installed by install.sh (no install-dir setting): install the agent with the console’s command to let it upgrade',
      );
    }
    if (flavor === null) {
      throw new UpgradeError('this agent runs from the repository, not from a release build');
    }
    const layout = installLayout(installDir);
    const running = await currentVersion(layout);
    if (running !== agentVersion) {
      throw new UpgradeError(
        `${layout.current} points at ${running ?? 'nothing'}, not at this agent (${agentVersion})`,
      );
    }
    const listing = await fetchListing(server);
    if (listing.version !== order.version) {
      throw new UpgradeError(`the server now serves ${listing.version}, not ${order.version}`);
    }
    log.info({ from: agentVersion, to: order.version, flavor }, 'agent upgrade: downloading');
    await installVersion({ server, layout, listing, flavor });
    await writeStateFile(this.files.inProgress, {
      id: order.id,
      from: agentVersion,
      to: order.version,
      deadline: Math.ceil((Date.now() + this.options.timeoutMs) / 1000),
    });
    try {
      await switchCurrent(layout, order.version);
    } catch (error) {
      await rm(this.files.inProgress, { force: true });
      throw error;
    }
    log.info({ from: agentVersion, to: order.version }, 'agent upgrade: switched, restarting');
    this.options.exit(0);
  }
}
