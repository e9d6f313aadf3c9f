import DataLoader from 'dataloader';
import type { FastifyBaseLogger } from 'fastify';
import type {
  AgentAlertAck,
  AgentHeartbeat,
  AgentHeartbeatReply,
  AgentRejectedEvent,
} from '@palisade/contract';
import type { AppContext } from '../../plugins/context.js';
import { storableText } from '../../db/storable-text.js';
import { AppError, rateLimited } from '../../lib/app-error.js';
import { verifyDecoy, verifySecret } from '../../lib/passwords.js';
import { notifyConsole, type ConsoleEventKind } from '../../plugins/console-events.js';
import { noteStoredAlerts } from '../alerts/alerts.service.js';
import { deviceActor, recordAudit } from '../audit/audit.service.js';
import { firewallHitsRecorder } from '../firewall/firewall-hits.service.js';
import type { DevicePrincipal } from '../../plugins/device-auth.js';
import type { AccessClaims } from '../../lib/tokens.js';
import { GroupWrite } from '../../db/group-write.js';
import { DatabaseUnavailableError } from '../../db/errors.js';
import type { Queryable } from '../../db/client.js';
import {
  clearFailedAttempts,
  countFailedAttempts,
  recordFailedAttempt,
} from '../auth/auth.service.js';
import {
  agentRepository as repo,
  type AlertBatch,
  type AlertRecord,
  type AppliedReport,
  type LogBatch,
  type RemoteVersions,
} from './agent.repository.js';
import { BundleCache } from './bundle-cache.js';
import { encodeBundle, negotiateEncoding, type EncodedBundle } from './bundle-encoding.js';
import { readAlert } from './eve-alerts.js';
import { HeartbeatBatch } from './heartbeat-batch.js';

const LOGIN_LIMIT = { windowSeconds: 15 * 60, perDeviceAndAddress: 10 } as const;
/**
 * Sign-ins under way at once. A fleet that starts together asks for more password checks
 * (argon2id, ~20 ms of CPU each, on libuv's four threads) than the CPU can do: queued, the
 * sign-ins outlive the agents' time limit and come back as retries while their hashes are still
 * being computed, and few ever finish. Past this, a sign-in is answered 429 at once, with a
 * Retry-After spread over SIGN_IN_RETRY_SECONDS. (8 was too few: on a loaded server a sign-in's
 * three queries, not its hash, then set the pace, about ten a second.)
 */
const MAX_CONCURRENT_SIGN_INS = 32;
const SIGN_IN_RETRY_SECONDS = 10;
/** Reads of a device's versions before its bundle is rendered from the cache's misses alone. */
const BUNDLE_ATTEMPTS = 3;
/** How long apply reports and log batches are gathered before their group is written. */
const GATHER_MS = 5;
/**
 * How long alert batches are gathered before their group is stored. Each device sends its next
 * batch only once this one is acknowledged, so the wait is a device's, never the fleet's; at a
 * fleet's steady trickle (a few alerts per device a minute) it turns a transaction per batch
 * into one per gathering.
 */
const ALERT_GATHER_MS = 20;
/** Most alert batches stored by one transaction (each holds at most 1,000 events). */
const MAX_ALERT_GROUP = 64;
/**
 * On a PostgreSQL server, batches of this many events or more are stored in a transaction of
 * their own, at once: the server runs the transactions of its connections in parallel, and a
 * group of large batches, one transaction on one connection, ingested at 0.50× psql instead
 * of 0.86×. The embedded database runs one statement at a time on this thread: there every
 * batch is gathered (ingest went from about 7,000 to 8,500 rows a second).
 */
const ALONE_ON_POSTGRES = 100;
/** Shortest time between two notices of agent writes of one kind to one organization. */
const CONSOLE_NOTICE_MS = 1000;
/**
 * The same when a write changed what the console shows of a device (its state, versions or
 * pending flag): every screen must show it within a second of the report (issue 19, item 7).
 */
const CONSOLE_CHANGE_MS = 250;

/** A sensor's error texts may quote traffic or tool output: kept, escaped where they must be. */
function storableBeat(beat: AgentHeartbeat): AgentHeartbeat {
  if (!beat.last_error && !beat.upgrade?.error) return beat;
  return {
    ...beat,
    ...(beat.last_error ? { last_error: storableText(beat.last_error) } : {}),
    ...(beat.upgrade?.error
      ? { upgrade: { ...beat.upgrade, error: storableText(beat.upgrade.error) } }
      : {}),
  };
}

const unauthorized = () => new AppError('unauthorized', 'Could not validate device credentials');

/** The organizations of a group write's accepted items. */
function orgsOf(results: readonly ({ orgId: number } | null | undefined)[]): Set<number> {
  const orgIds = new Set<number>();
  for (const result of results) if (result) orgIds.add(result.orgId);
  return orgIds;
}

export const bundleEtag = (config: number, policy: number) => `"${config}-${policy}"`;

/**
 * Splits a group's batches into rounds in which each device appears at most once, in the order
 * they came: a device's repeat (a retry sent while the first was still waiting) goes into a
 * later round, after its first is stored. Each entry keeps its index in `batches`.
 */
function roundsByDevice<T extends { deviceId: number }>(
  batches: readonly T[],
): { batch: T; index: number }[][] {
  const rounds: { batch: T; index: number }[][] = [];
  const roundOfDevice = new Map<number, number>();
  batches.forEach((batch, index) => {
    const round = (roundOfDevice.get(batch.deviceId) ?? -1) + 1;
    roundOfDevice.set(batch.deviceId, round);
    (rounds[round] ??= []).push({ batch, index });
  });
  return rounds;
}

type AlertBatchOutcome = { claimed: boolean; ack: number } | { error: unknown };

/**
 * Stores alert batches once each, in the caller's transaction: a batch whose seq its device
 * already stored (a retry) is answered with the device's acknowledged number and writes
 * nothing. A device's batches in the same group are claimed in rounds, in the order they came.
 */
async function storeAlertBatches(
  tx: Queryable,
  batches: readonly AlertBatch[],
): Promise<AlertBatchOutcome[]> {
  const outcomes = new Array<AlertBatchOutcome>(batches.length);
  for (const round of roundsByDevice(batches)) {
    const policies = await repo.claimAlertBatches(
      tx,
      round.map(({ batch }) => batch),
    );
    const claimed = round.flatMap(({ batch }) => {
      const policy = policies.get(batch.deviceId);
      return policy ? [{ ...batch, policy, alerts: batch.records }] : [];
    });
    await repo.insertAlerts(tx, claimed);
    await noteStoredAlerts(tx, claimed);
    await repo.countRejectedAlerts(
      tx,
      claimed
        .filter((batch) => batch.rejected > 0)
        .map((batch) => ({ deviceId: batch.deviceId, count: batch.rejected })),
    );
    const unclaimed = round.filter(({ batch }) => !policies.has(batch.deviceId));
    const acks =
      unclaimed.length > 0
        ? await repo.alertAcks(
            tx,
            unclaimed.map(({ batch }) => batch.deviceId),
          )
        : new Map<number, number>();
    for (const { batch, index } of round) {
      // A claimed batch raised the acknowledged number to its own seq.
      outcomes[index] = policies.has(batch.deviceId)
        ? { claimed: true, ack: batch.seq }
        : { claimed: false, ack: acks.get(batch.deviceId) ?? 0 };
    }
  }
  return outcomes;
}

export function createAgentService(ctx: AppContext, log: FastifyBaseLogger) {
  const { db, tokens } = ctx;
  const bundles = new BundleCache(db);

  // A fleet heartbeats, logs and sends alerts constantly: consoles hear "devices changed" and
  // "new alerts" at most once a second per org and kind, and always after the last write (one
  // that falls inside the second is told at its end). A change the console shows at once (a
  // device's state, applied versions, pending flag) is told at once, or, within CONSOLE_CHANGE_MS
  // of the last such notice, at the end of that spell (a routine notice due later comes with it).
  // A NOTIFY per write would also serialise the writers' commits: PostgreSQL takes one lock for
  // the notification queue at each commit.
  const notices = new Map<
    string,
    { last: number; lastChange: number; pending: NodeJS.Timeout | null; due: number }
  >();
  function tellConsoles(
    orgIds: Iterable<number>,
    kind: ConsoleEventKind = 'devices',
    changed = false,
  ) {
    for (const orgId of orgIds) {
      const key = `${orgId}:${kind}`;
      let notice = notices.get(key);
      if (!notice) {
        notice = { last: 0, lastChange: 0, pending: null, due: 0 };
        notices.set(key, notice);
      }
      const now = Date.now();
      const due = changed
        ? Math.max(now, notice.lastChange + CONSOLE_CHANGE_MS)
        : Math.max(now, notice.last + CONSOLE_NOTICE_MS);
      if (notice.pending !== null) {
        if (notice.due <= due) continue;
        clearTimeout(notice.pending);
        notice.pending = null;
      }
      const current = notice;
      const send = () => {
        current.pending = null;
        current.last = Date.now();
        if (changed) current.lastChange = current.last;
        notifyConsole(db, orgId, kind).catch((error: unknown) =>
          log.warn({ err: error, kind }, 'telling consoles of agent writes failed'),
        );
      };
      if (due <= now) send();
      else {
        current.due = due;
        current.pending = setTimeout(send, due - now);
      }
    }
  }
  /**
   * The agent took a firewall change back by itself (agent-protocol.md, "commit confirmed"): a
   * change of what the device runs, recorded as the device's own action. Sent until a beat
   * carrying it is answered, so a lost answer may record it twice.
   */
  async function recordRollback(
    orgId: number,
    deviceId: number,
    rollback: NonNullable<AgentHeartbeat['firewall_rollback']>,
  ) {
    await db.transaction(async (tx) => {
      const name = (await repo.deviceName(tx, deviceId)) ?? `#${deviceId}`;
      await recordAudit(tx, {
        orgId,
        actor: deviceActor({ id: deviceId, name }),
        action: 'rollback',
        object: { type: 'device', id: deviceId, name },
        before: { firewall_config_version: rollback.config_version },
        after: { reason: storableText(rollback.reason) },
      });
    });
  }

  const recordFirewallHits = firewallHitsRecorder(db);
  const heartbeats = new HeartbeatBatch(
    db,
    (orgIds, changedOrgIds) => {
      tellConsoles(changedOrgIds, 'devices', true);
      tellConsoles(orgIds);
    },
    (error) => log.error({ err: error }, 'writing heartbeats that were already answered failed'),
  );

  // A change that reaches a fleet is applied by all its devices in the same moment: their
  // reports are written together, each answered once its write committed. The statement checks
  // each report's token against its device's row (no query of its own): null, refused.
  const appliedReports = new GroupWrite<AppliedReport, { orgId: number } | null>(
    async (reports) => {
      const results = await repo.appliedMany(db, reports);
      // The devices' versions, pending flag and state moved: consoles show it at once.
      tellConsoles(orgsOf(results), 'devices', true);
      return results;
    },
    { gatherMs: GATHER_MS },
  );

  // Log batches of many devices in one statement (a fleet-wide change makes every device log
  // its apply); a device's repeat of a batch in the same group goes into a later statement.
  // Each batch's token is checked in that statement: undefined, refused.
  const logBatches = new GroupWrite<
    LogBatch,
    { orgId: number; claimed: boolean; ack: number } | undefined
  >(
    async (batches) => {
      const results = new Array<{ orgId: number; claimed: boolean; ack: number } | undefined>(
        batches.length,
      );
      for (const round of roundsByDevice(batches)) {
        const rows = await repo.storeLogBatches(
          db,
          round.map(({ batch }) => batch),
        );
        const byDevice = new Map(rows.map((row) => [row.id, row]));
        for (const { batch, index } of round) results[index] = byDevice.get(batch.deviceId);
      }
      tellConsoles(orgsOf(results));
      return results;
    },
    { gatherMs: GATHER_MS },
  );

  /** One batch in a transaction of its own; a refusal is its outcome, not thrown. */
  const storeAlone = (batch: AlertBatch): Promise<AlertBatchOutcome> =>
    db
      .transaction((tx) => storeAlertBatches(tx, [batch]))
      .then(
        ([outcome]) => outcome ?? { error: new Error('the alert batch was not stored') },
        (error: unknown) => ({ error }),
      );

  // Alert batches of many devices in one transaction: a fleet's sensors each send a few alerts
  // at a time, and a transaction each cost the database more than their rows. A batch the
  // database refuses must not refuse the others gathered with it: then each is stored alone.
  const alertBatches = new GroupWrite<AlertBatch, AlertBatchOutcome>(
    async (batches) => {
      try {
        return await db.transaction((tx) => storeAlertBatches(tx, batches));
      } catch (error) {
        if (batches.length === 1 || error instanceof DatabaseUnavailableError) {
          return batches.map(() => ({ error }));
        }
        const outcomes: AlertBatchOutcome[] = [];
        for (const batch of batches) outcomes.push(await storeAlone(batch));
        return outcomes;
      }
    },
    { gatherMs: ALERT_GATHER_MS, maxItems: MAX_ALERT_GROUP },
  );

  // A console change notifies every connected device of the organization at once; their
  // streams and bundle pulls then ask for their versions in the same moment: one query for all.
  const remotes = new DataLoader<number, RemoteVersions | undefined>(
    async (ids) => {
      const byId = new Map((await repo.remotes(db, ids)).map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id));
    },
    // Two milliseconds: the pulls read meanwhile join the same query.
    { cache: false, maxBatchSize: 5000, batchScheduleFn: (run) => setTimeout(run, 2) },
  );
  /** The device's versions, read for a token of it: a revoked token or a gone device is a 401. */
  async function remote(token: AccessClaims) {
    const row = await remotes.load(token.subject);
    if (!row || row.token_version !== token.tokenVersion) throw unauthorized();
    return row;
  }

  async function checkPassword(deviceId: number, password: string, address: string) {
    const key = `agent:${deviceId}|${address}`;
    const attempts = await countFailedAttempts(db, key, LOGIN_LIMIT.windowSeconds);
    if (attempts.failures >= LOGIN_LIMIT.perDeviceAndAddress) {
      throw rateLimited(attempts.retryAfterSeconds);
    }
    const device = await repo.credentials(db, deviceId);
    const valid = device
      ? await verifySecret(device.password_hash, password)
      : (await verifyDecoy(password), false);
    if (!device || !valid) {
      await recordFailedAttempt(db, key, LOGIN_LIMIT.windowSeconds);
      throw new AppError('unauthorized', 'Incorrect device id or password');
    }
    await clearFailedAttempts(db, key);
    return {
      access_token: await tokens.issue(
        { subject: device.id, tokenVersion: device.token_version },
        'palisade-agent',
      ),
      token_type: 'bearer' as const,
      expires_in: tokens.expiresInSeconds,
    };
  }

  let signingIn = 0;

  return {
    async login(deviceId: number, password: string, address: string) {
      if (signingIn >= MAX_CONCURRENT_SIGN_INS) {
        throw rateLimited(
          1 + Math.floor(Math.random() * SIGN_IN_RETRY_SECONDS),
          'Too many devices are signing in at once, try again later',
        );
      }
      signingIn += 1;
      try {
        return await checkPassword(deviceId, password, address);
      } finally {
        signingIn -= 1;
      }
    },

    async heartbeat(token: AccessClaims, beat: AgentHeartbeat): Promise<AgentHeartbeatReply> {
      const { firewall_hits: hits, ...kept } = beat;
      const row = await heartbeats.record({
        deviceId: token.subject,
        tokenVersion: token.tokenVersion,
        seen: new Date(),
        beat: storableBeat(kept),
      });
      if (!row) throw unauthorized();
      if (hits) {
        // The counters are the device's own business: a failure is logged, the beat answered.
        await recordFirewallHits(token.subject, hits).catch((error: unknown) =>
          log.error({ err: error, device_id: token.subject }, 'recording firewall hits failed'),
        );
      }
      if (beat.firewall_rollback) {
        await recordRollback(row.org_id, token.subject, beat.firewall_rollback);
      }
      const reply: AgentHeartbeatReply = {
        remote: { config_version: row.config_version, policy_version: row.policy_version },
        pull:
          row.flush_requested ||
          beat.local.config_version !== row.config_version ||
          beat.local.policy_version !== row.policy_version,
        interval: row.heartbeat_interval,
      };
      // A routine beat is answered from the row of the device's last write: an upgrade that
      // this very beat's version ends is not asked again.
      if (
        row.upgrade_id !== null &&
        row.upgrade_version !== null &&
        row.upgrade_version !== beat.agent_version
      ) {
        reply.upgrade = { id: row.upgrade_id, version: row.upgrade_version };
      }
      return reply;
    },

    /**
     * The device's bundle answer, encoded as the agent accepts, or null when the agent's copy
     * (ETag) is current and no flush is asked. Rendered once per distinct content and encoded
     * once per content and encoding (bundle-cache.ts); a change that lands while it renders
     * makes it read the versions again, so an answer never names a version whose content it
     * does not carry.
     */
    async bundle(
      token: AccessClaims,
      ifNoneMatch: string | undefined,
      acceptEncoding: string | undefined,
    ): Promise<(EncodedBundle & { etag: string }) | null> {
      const encoding = negotiateEncoding(acceptEncoding);
      const deviceId = token.subject;
      // The token is checked against the same row as the versions (one query for the pulls
      // that arrive together, where a separate device check made two).
      let row = await remote(token);
      if (row.flush_requested) await repo.clearFlush(db, deviceId);
      else if (ifNoneMatch === bundleEtag(row.config_version, row.policy_version)) return null;
      for (let attempt = 1; ; attempt++) {
        const etag = bundleEtag(row.config_version, row.policy_version);
        const encoded = await bundles.encoded(deviceId, row, encoding);
        if (encoded !== null) return { etag, ...encoded };
        if (attempt === BUNDLE_ATTEMPTS) {
          const json = await bundles.uncached(deviceId, row);
          return { etag, ...(await encodeBundle(json, encoding)) };
        }
        row = await remote(token);
      }
    },

    /** Statements that wrote apply reports so far (each holds every report read meanwhile). */
    get appliedWrites() {
      return appliedReports.writes;
    },

    /** Bundle renders done so far (the cache's misses). */
    get bundleRenders() {
      return bundles.renders;
    },

    /** Records an apply report; a revoked token (checked in the report's write) is a 401. */
    async applied(
      token: AccessClaims,
      body: {
        config_version: number;
        policy_version: number;
        ok: boolean;
        error?: string | null | undefined;
      },
    ) {
      const accepted = await appliedReports.add({
        deviceId: token.subject,
        tokenVersion: token.tokenVersion,
        versions: body.ok ? { config: body.config_version, policy: body.policy_version } : null,
        error: body.ok ? null : storableText(body.error ?? 'apply failed (no detail given)'),
        received: new Date(),
      });
      if (!accepted) throw unauthorized();
    },

    /**
     * Stores a batch once: a retried seq is acknowledged without storing it again. Each event
     * is judged alone: every valid one is stored, the others are answered with the reason and
     * counted on the device, so one bad event never holds back the rest of a sensor's alerts.
     */
    async alerts(device: DevicePrincipal, seq: number, events: unknown[]): Promise<AgentAlertAck> {
      const records: AlertRecord[] = [];
      const rejected: AgentRejectedEvent[] = [];
      events.forEach((event, index) => {
        const reading = readAlert(event);
        if ('record' in reading) records.push(reading.record);
        else rejected.push({ index, reason: reading.reason });
      });
      const batch = {
        orgId: device.orgId,
        deviceId: device.deviceId,
        seq,
        records,
        rejected: rejected.length,
      };
      const stored =
        db.kind === 'postgres' && events.length >= ALONE_ON_POSTGRES
          ? await storeAlone(batch)
          : await alertBatches.add(batch);
      if ('error' in stored) throw stored.error;
      if (!stored.claimed) return { ack: stored.ack, rejected: [] };
      if (records.length > 0) tellConsoles([device.orgId], 'alerts');
      if (rejected.length > 0) tellConsoles([device.orgId], 'devices');
      if (rejected.length > 0) {
        // Reasons only: an event's content may hold anything a sensor saw on the wire.
        log.warn(
          {
            deviceId: device.deviceId,
            seq,
            rejected: rejected.length,
            first: rejected.slice(0, 5),
          },
          'alert events rejected',
        );
      }
      return { ack: stored.ack, rejected };
    },

    /** Stores a log batch once; a revoked token (checked in the batch's write) is a 401. */
    async logs(
      token: AccessClaims,
      seq: number,
      lines: { time: string; level: string; msg: string }[],
    ) {
      const now = new Date().toISOString();
      const stamped = lines.map((line) => ({
        ...line,
        time: Number.isNaN(Date.parse(line.time)) ? now : line.time,
        msg: storableText(line.msg),
      }));
      const stored = await logBatches.add({
        deviceId: token.subject,
        tokenVersion: token.tokenVersion,
        seq,
        lines: stamped,
      });
      if (!stored) throw unauthorized();
      return { ack: stored.ack };
    },

    /**
     * The organization's devices changed (null: any organization's may have, as after a lost
     * LISTEN connection): heartbeats are answered from fresh rows again.
     */
    devicesChanged(orgId: number | null): void {
      if (orgId === null) heartbeats.forgetAll();
      else heartbeats.forgetOrganization(orgId);
    },

    /** At shutdown: writes the heartbeats answered before their write; drops pending notices. */
    async close() {
      await heartbeats.flush();
      await appliedReports.flush();
      await alertBatches.flush();
      await logBatches.flush();
      for (const notice of notices.values())
        if (notice.pending !== null) clearTimeout(notice.pending);
    },
  };
}
