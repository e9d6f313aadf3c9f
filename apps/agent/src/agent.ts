// One device's agent: sign-in, heartbeats with metrics, the push channel, bundle sync, and the
// alert and log spools with their senders. `run` uses one; `fleet` runs many in one process.

import type { AgentFlavor, AgentVersions, DeviceMetrics, SensorHealth } from '@palisade/contract';
import { mkdir, readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { Applier, sameVersions, type Versions } from './apply/applier.js';
import { AgentApi, ApiError, type LogLine } from './client/api.js';
import { backoffDelay, sleep } from './client/backoff.js';
import { followEvents } from './client/events.js';
import type { SharedBundles } from './client/shared-bundles.js';
import { EveCollector } from './eve/collector.js';
import { SensorHealthTracker } from './eve/health.js';
import { readRuleErrors } from './eve/rule-errors.js';
import type { EveEvent } from './eve/tailer.js';
import { LOG_LINGER_MS, queueLogLine, type LogTap } from './log.js';
import { SystemMetrics, type MetricsSource } from './metrics/system.js';
import { AlertSimulation } from './simulate/alerts.js';
import { SimulatedMetrics } from './simulate/metrics.js';
import { SimulatedStats } from './simulate/stats.js';
import { simulationTicker } from './simulate/ticker.js';
import { Batcher } from './spool/batcher.js';
import { SpoolSender } from './spool/sender.js';
import { Spool } from './spool/spool.js';
import { Upgrader } from './upgrade/upgrader.js';

export interface AgentSettings {
  server: string;
  deviceId: number;
  password: string;
  outputDir: string;
  stateDir: string;
  reloadCommands: string[];
  reloadTimeoutMs: number;
  /** Suricata's eve.json to follow (null: none). */
  eve: string | null;
  eveStartAtEnd: boolean;
  simulate: boolean;
  /** Simulated alerts per second outside bursts. */
  simulateRate: number;
  /** Simulated bursts of alerts per hour. */
  simulateBursts: number;
  diskPath: string;
  batchSize: number;
  batchDelayMs: number;
  spoolMaxBytes: number;
  /** Seconds between heartbeats instead of the server's interval. */
  heartbeatSeconds: number | null;
  push: boolean;
  /** Wait this long before the first heartbeat (a fleet spreads its start). */
  startDelayMs: number;
  /**
   * A simulated device of a fleet: its bundle (when nothing is reloaded) and its alert and log
   * spools are kept in memory, never written.
   */
  stateInMemory?: boolean;
  /** Where install.sh put the agent (null: not installed by it, so it cannot upgrade itself). */
  installDir: string | null;
  /** How long a new version has to report in after an upgrade before the old one is restored. */
  upgradeTimeoutMs: number;
  /** How long a firewall change waits for the server before it is taken back (0: never). */
  firewallConfirmMs?: number;
  /** The command that applies nftables.nft.previous when a change is taken back. */
  firewallRestoreCommand?: string;
  /** The nft program that lists Palisade's table and re-applies it on drift. */
  nft?: string;
  /** How often the firewall rules' counters go with a heartbeat (0: never; default 300 s). */
  firewallHitsMs?: number;
  /** Suricata's log, where the reasons for rules it failed to load are read (null: none). */
  suricataLog?: string | null;
}

export interface AgentContext {
  log: Logger;
  tap: LogTap;
  agentVersion: string;
  /** How this build is shipped (null: run from the repository). */
  flavor: AgentFlavor | null;
  /** Ends the process after the agent stopped (an upgrade restarts it); absent: never asked. */
  exit?: (code: number) => void;
  /** A fleet's devices share the bundles they are served (absent: a device of its own). */
  sharedBundles?: SharedBundles;
}

export interface AgentStats {
  heartbeats: number;
  heartbeatErrors: number;
  alertsSpooled: number;
  alertAck: number;
  /** Alerts the server refused (listed as rejected, or in a batch it refused as invalid). */
  alertsRejected: number;
  pushConnected: boolean;
}

export class Agent {
  readonly api: AgentApi;
  readonly applier: Applier;
  readonly upgrader: Upgrader;
  readonly log: Logger;
  readonly stats: AgentStats = {
    heartbeats: 0,
    heartbeatErrors: 0,
    alertsSpooled: 0,
    alertAck: 0,
    alertsRejected: 0,
    pushConnected: false,
  };
  private readonly stopper = new AbortController();
  private readonly tasks: Promise<void>[] = [];
  private readonly stoppers: (() => Promise<void>)[] = [];
  private metrics: MetricsSource | undefined;
  private health: SensorHealthTracker | undefined;
  /** A simulated sensor's Suricata counters (its health reads them as a real eve.json's). */
  private simulatedStats: SimulatedStats | undefined;
  private simulation: AlertSimulation | undefined;
  /** The engine's reasons for failed rules, read once per reload that failed some. */
  private ruleErrors: { key: string; errors: string[] | null } | undefined;
  /** performance.now() of the last heartbeat that carried the firewall counters. */
  private hitsSentAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly settings: AgentSettings,
    private readonly context: AgentContext,
  ) {
    this.log = context.log.child({ device_id: settings.deviceId });
    this.api = new AgentApi({
      server: settings.server,
      deviceId: settings.deviceId,
      password: settings.password,
      agentVersion: context.agentVersion,
      ...(context.sharedBundles ? { sharedBundles: context.sharedBundles } : {}),
      onAnswer: (sentAt) => this.applier.contact(sentAt),
    });
    this.applier = new Applier({
      api: this.api,
      outputDir: settings.outputDir,
      stateDir: settings.stateDir,
      reloadCommands: settings.reloadCommands,
      reloadTimeoutMs: settings.reloadTimeoutMs,
      log: this.log,
      onRules: (rules) => this.simulation?.setRules(rules),
      inMemory: settings.stateInMemory === true && settings.reloadCommands.length === 0,
      firewallConfirmMs: settings.firewallConfirmMs,
      firewallRestoreCommand: settings.firewallRestoreCommand,
      nft: settings.nft,
    });
    this.upgrader = new Upgrader({
      server: settings.server,
      stateDir: settings.stateDir,
      installDir: settings.installDir,
      flavor: context.flavor,
      agentVersion: context.agentVersion,
      timeoutMs: settings.upgradeTimeoutMs,
      log: this.log,
      exit: (code) => {
        const exit = context.exit;
        if (!exit) throw new Error('this agent cannot restart itself');
        void this.stop().finally(() => exit(code));
      },
    });
  }

  get versions(): AgentVersions {
    return this.applier.versions;
  }

  async start(): Promise<void> {
    const { settings } = this;
    await mkdir(settings.stateDir, { recursive: true });
    await mkdir(settings.outputDir, { recursive: true });
    await this.applier.load();
    await this.upgrader.start();
    await this.startLogs();
    await this.startAlerts();
    this.metrics = settings.simulate
      ? new SimulatedMetrics(settings.deviceId)
      : new SystemMetrics(settings.diskPath);
    if (settings.simulate) {
      this.simulatedStats = new SimulatedStats(settings.deviceId);
      this.health ??= new SensorHealthTracker();
    }
    this.tasks.push(this.heartbeatLoop());
    if (settings.push) this.tasks.push(this.pushLoop());
    this.log.info(
      { server: settings.server, versions: this.applier.versions, simulate: settings.simulate },
      'agent started',
    );
  }

  async stop(): Promise<void> {
    this.upgrader.stop();
    this.applier.stop();
    this.stopper.abort();
    await Promise.allSettled(this.tasks);
    await this.applier.idle();
    for (const stop of this.stoppers.reverse()) await stop();
  }

  private async startLogs(): Promise<void> {
    const options = { maxBytes: 64 * 1024 * 1024 };
    const spool = this.settings.stateInMemory
      ? Spool.inMemory<LogLine>(options)
      : await Spool.open<LogLine>(this.settings.stateDir, 'logs', options);
    const sender = new SpoolSender<LogLine>({
      spool,
      send: (batch, signal) => this.api.logs(batch.seq, batch.items, signal),
      onRefused: (batch, error) =>
        this.log.warn(
          { err: error, seq: batch.seq, lines: batch.items.length },
          'log batch refused by the server: dropped',
        ),
    });
    const batcher = new Batcher<LogLine>(spool, {
      maxItems: 500,
      maxDelayMs: LOG_LINGER_MS,
      onBatch: () => sender.notify(),
    });
    const detach = this.context.tap.attach(this.settings.deviceId, (line) => {
      queueLogLine(batcher, line).catch(() => undefined);
    });
    sender.start();
    this.stoppers.push(async () => {
      detach();
      await batcher.flush();
      await sender.stop();
    });
  }

  private async startAlerts(): Promise<void> {
    const { settings, log } = this;
    const options = {
      maxBytes: settings.spoolMaxBytes,
      onDrop: (seq: number, items: number) =>
        log.error({ seq, items }, 'alert spool full: oldest batch dropped'),
    };
    const spool = settings.stateInMemory
      ? Spool.inMemory<EveEvent>(options)
      : await Spool.open<EveEvent>(settings.stateDir, 'alerts', options);
    const sender = new SpoolSender<EveEvent>({
      spool,
      send: (batch, signal) => this.api.alerts(batch.seq, batch.items, signal),
      onAck: (ack) => {
        this.stats.alertAck = ack;
      },
      onDrop: (batch) =>
        log.error({ seq: batch.seq }, 'an alert larger than the server accepts was dropped'),
      // Not sent again: an invalid batch would otherwise hold back every alert after it.
      onRefused: (batch, error) => {
        this.stats.alertsRejected += batch.items.length;
        log.error(
          { err: error, seq: batch.seq, alerts: batch.items.length },
          'alert batch refused by the server as invalid: dropped',
        );
      },
      onRejected: (batch, rejected) => {
        this.stats.alertsRejected += rejected.length;
        log.warn(
          { seq: batch.seq, rejected: rejected.length, first: rejected.slice(0, 5) },
          'alerts rejected by the server (the rest of their batch is stored)',
        );
      },
      onError: (error, attempt) => {
        if (attempt === 1 || attempt % 10 === 0) {
          log.warn({ err: error, attempt, waiting: spool.size }, 'sending alerts failed');
        }
      },
    });
    sender.start();
    this.stoppers.push(() => sender.stop());
    const batch = {
      maxItems: settings.batchSize,
      maxDelayMs: settings.batchDelayMs,
      onBatch: () => sender.notify(),
    };
    if (settings.eve) {
      const collector = new EveCollector({
        file: settings.eve,
        spool,
        batch,
        startAtEnd: settings.eveStartAtEnd,
        onError: (error) => log.warn({ err: error }, 'reading eve.json failed'),
        onMalformed: (position, reason) => log.warn({ position, reason }, 'eve.json line skipped'),
      });
      this.health = collector.health;
      collector.start();
      this.stoppers.push(() => collector.stop());
    }
    if (settings.simulate) {
      const batcher = new Batcher<EveEvent>(spool, {
        ...batch,
        cursor: false,
        onError: (error) => log.warn({ err: error }, 'spooling simulated alerts failed'),
      });
      this.simulation = new AlertSimulation({
        deviceId: settings.deviceId,
        rate: settings.simulateRate,
        burstsPerHour: settings.simulateBursts,
      });
      try {
        this.simulation.setRules(await readFile(this.applier.rulesFile, 'utf8'));
      } catch {
        // no bundle yet: alerts start once one is applied
      }
      this.stoppers.push(() => batcher.flush());
      this.stoppers.push(this.simulateEverySecond(batcher));
    }
  }

  /** Simulated alerts each second, on the process's shared clock; returns the way to stop. */
  private simulateEverySecond(batcher: Batcher<EveEvent>): () => Promise<void> {
    let last = Date.now();
    let ticking: Promise<void> | undefined;
    const unsubscribe = simulationTicker.subscribe((now) => {
      const simulation = this.simulation;
      // A second whose alerts are still being spooled is merged into the next one.
      if (ticking || !simulation) return;
      const events = simulation.tick(now, (now - last) / 1000);
      last = now;
      if (this.metrics instanceof SimulatedMetrics) this.metrics.load = simulation.currentRate;
      this.simulatedStats?.alerted(events.length);
      if (events.length === 0) return;
      ticking = (async () => {
        for (const event of events) {
          this.stats.alertsSpooled += 1;
          await batcher.add(event);
        }
      })()
        .catch((error: unknown) =>
          this.log.warn({ err: error }, 'spooling simulated alerts failed'),
        )
        .finally(() => {
          ticking = undefined;
        });
    });
    return async () => {
      unsubscribe();
      await ticking;
    };
  }

  private onRemote(remote: Versions, pull: boolean): void {
    const local = this.applier.versions;
    const same = sameVersions(remote, local);
    if (!pull && same) return;
    this.applier.trigger({ remote }).catch(() => undefined);
  }

  private async heartbeatOnce(): Promise<number> {
    let metrics: DeviceMetrics | undefined;
    try {
      metrics = await this.metrics?.sample();
    } catch (error) {
      this.log.debug({ err: error }, 'metrics unavailable');
    }
    const upgrade = this.upgrader.pendingReport;
    const rollback = this.applier.confirm?.report ?? null;
    const serverEndpoint = this.api.serverEndpoint;
    if (this.simulatedStats) {
      const rules = this.simulation?.signatureCount ?? 0;
      this.health?.observe(this.simulatedStats.event(metrics?.net_in ?? 0, rules));
    }
    const health = await this.withRuleErrors(this.health?.current);
    const firewall = await this.applier.checkFirewall().catch((error: unknown) => {
      this.log.warn({ err: error }, 'checking the firewall for drift failed');
      return null;
    });
    const hits = firewall && !firewall.drift ? this.dueFirewallHits() : null;
    const reply = await this.api.heartbeat(
      {
        state: this.applier.state,
        metrics,
        local: this.applier.versions,
        agent_version: this.context.agentVersion,
        last_error: this.applier.lastError ?? this.upgrader.lastError,
        ...(upgrade ? { upgrade } : {}),
        ...(serverEndpoint ? { server_endpoint: serverEndpoint } : {}),
        ...(rollback ? { firewall_rollback: rollback } : {}),
        ...(health ? { health } : {}),
        ...(firewall ? { firewall } : {}),
        ...(hits ? { firewall_hits: hits } : {}),
      },
      this.stopper.signal,
    );
    this.stats.heartbeats += 1;
    if (upgrade) await this.upgrader.reported();
    if (rollback) await this.applier.confirm?.reported(rollback);
    this.onRemote(reply.remote, reply.pull);
    if (reply.upgrade) this.upgrader.order(reply.upgrade);
    // A nonsensical interval must not turn the loop into a flood or a silence.
    return Math.min(3600, Math.max(1, this.settings.heartbeatSeconds ?? reply.interval)) * 1000;
  }

  /**
   * With rules failed, the reasons Suricata logged (read again only when the stats name another
   * reload or count); a simulated sensor, or one without a readable log, sends none.
   */
  private async withRuleErrors(health: SensorHealth | undefined) {
    const file = this.settings.suricataLog;
    if (!health || !file || !this.settings.eve || !health.rules_failed) return health;
    const key = `${health.last_reload ?? ''}/${health.rules_failed}`;
    if (this.ruleErrors?.key !== key) {
      this.ruleErrors = { key, errors: await readRuleErrors(file) };
    }
    const errors = this.ruleErrors.errors;
    return errors && errors.length > 0 ? { ...health, rule_errors: errors } : health;
  }

  /** The firewall counters, once every firewallHitsMs. */
  private dueFirewallHits() {
    const every = this.settings.firewallHitsMs ?? 300_000;
    if (every <= 0 || performance.now() - this.hitsSentAt < every) return null;
    const hits = this.applier.firewallCounters();
    if (hits) this.hitsSentAt = performance.now();
    return hits;
  }

  private async heartbeatLoop(): Promise<void> {
    const signal = this.stopper.signal;
    let attempt = 0;
    let interval = 30_000;
    await sleep(this.settings.startDelayMs, signal);
    while (!signal.aborted) {
      let wait: number;
      try {
        interval = await this.heartbeatOnce();
        // ±10 %: a fleet restarted together does not keep beating in step.
        wait = interval * (0.9 + 0.2 * Math.random());
        attempt = 0;
      } catch (error) {
        if (signal.aborted) return;
        attempt += 1;
        this.stats.heartbeatErrors += 1;
        const retryAfter = error instanceof ApiError ? error.retryAfter : undefined;
        wait = retryAfter
          ? retryAfter * 1000
          : Math.min(interval, backoffDelay(attempt, { baseMs: 1000, maxMs: 60_000 }));
        if (attempt === 1 || attempt % 10 === 0) {
          this.log.warn({ err: error, attempt }, 'heartbeat failed');
        }
      }
      await sleep(wait, signal);
    }
  }

  private async pushLoop(): Promise<void> {
    await sleep(this.settings.startDelayMs, this.stopper.signal);
    await followEvents({
      api: this.api,
      signal: this.stopper.signal,
      onVersions: (push) => this.onRemote(push, push.pull),
      onActivity: () => this.applier.contact(),
      onState: (state, error) => {
        this.stats.pushConnected = state === 'open';
        if (state === 'open') this.log.debug('push channel open');
        else this.log.debug({ err: error }, 'push channel closed');
      },
    });
  }
}
