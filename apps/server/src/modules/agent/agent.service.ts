import DataLoader from 'dataloader';
import type { FastifyBaseLogger } from 'fastify';
import type {
  AgentAlertAck,
  AgentHeartbeat,
  AgentHeartbeatReply,
  AgentRejectedEvent,
} from '@palisade/contract';
import type { AppContext } from '../../plugins/context.js';
import { authAttempts } from '../../db/auth-attempts.js';
import { storableText } from '../../db/storable-text.js';
import { AppError, rateLimited } from '../../lib/app-error.js';
import { verifyDecoy, verifySecret } from '../../lib/passwords.js';
import { notifyConsole, type ConsoleEventKind } from '../../plugins/console-events.js';
import { noteStoredAlerts } from '../alerts/alerts.service.js';
import type { DevicePrincipal } from '../../plugins/device-auth.js';
import type { AccessClaims } from '../../lib/tokens.js';
import { GroupWrite } from '../../db/group-write.js';
import {
  agentRepository as repo,
  type AlertRecord,
  type AppliedReport,
  type LogBatch,
  type RemoteVersions,
} from './agent.repository.js';
import { BundleCache } from './bundle-cache.js';
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
/** Shortest time between two notices of agent writes of one kind to one organization. */
const CONSOLE_NOTICE_MS = 1000;

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

export const bundleEtag = (config: number, policy: number) => `"${config}-${policy}"`;

export function createAgentService(ctx: AppContext, log: FastifyBaseLogger) {
  const { db, tokens } = ctx;
  const bundles = new BundleCache(db);

  // A fleet heartbeats, logs and sends alerts constantly: consoles hear "devices changed" and
  // "new alerts" at most once a second per org and kind, and always after the last write (one
  // that falls inside the second is told at its end). A NOTIFY per write would also serialise
  // the writers' commits: PostgreSQL takes one lock for the notification queue at each commit.
  const notices = new Map<string, { last: number; pending: NodeJS.Timeout | null }>();
  function tellConsoles(orgIds: Iterable<number>, kind: ConsoleEventKind = 'devices') {
    for (const orgId of orgIds) {
      const key = `${orgId}:${kind}`;
      let notice = notices.get(key);
      if (!notice) {
        notice = { last: 0, pending: null };
        notices.set(key, notice);
      }
      if (notice.pending !== null) continue;
      const current = notice;
      const send = () => {
        current.pending = null;
        current.last = Date.now();
        notifyConsole(db, orgId, kind).catch((error: unknown) =>
          log.warn({ err: error, kind }, 'telling consoles of agent writes failed'),
        );
      };
      const wait = current.last + CONSOLE_NOTICE_MS - Date.now();
      if (wait <= 0) send();
      else current.pending = setTimeout(send, wait);
    }
  }
  const heartbeats = new HeartbeatBatch(db, tellConsoles, (error) =>
    log.error({ err: error }, 'writing heartbeats that were already answered failed'),
  );

  // A change that reaches a fleet is applied by all its devices in the same moment: their
  // reports are written together, each answered once its write committed.
  const appliedReports = new GroupWrite<AppliedReport>(
    async (reports) => {
      await repo.appliedMany(db, reports);
      return [];
    },
    { gatherMs: GATHER_MS },
  );

  // Log batches of many devices in one statement (a fleet-wide change makes every device log
  // its apply); a device's repeat of a batch in the same group goes into a later statement.
  const logBatches = new GroupWrite<
    LogBatch & { orgId: number },
    { claimed: boolean; ack: number }
  >(
    async (batches) => {
      const results = new Array<{ claimed: boolean; ack: number }>(batches.length);
      let rest = batches.map((batch, index) => ({ batch, index }));
      while (rest.length > 0) {
        const seen = new Set<number>();
        const round = rest.filter(
          ({ batch }) => !seen.has(batch.deviceId) && !!seen.add(batch.deviceId),
        );
        rest = rest.filter((entry) => !round.includes(entry));
        const rows = await repo.storeLogBatches(
          db,
          round.map(({ batch }) => batch),
        );
        const byDevice = new Map(rows.map((row) => [row.id, row]));
        for (const { batch, index } of round) {
          results[index] = byDevice.get(batch.deviceId) ?? { claimed: false, ack: 0 };
        }
      }
      tellConsoles(new Set(batches.map((batch) => batch.orgId)));
      return results;
    },
    { gatherMs: GATHER_MS },
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
  async function remote(deviceId: number) {
    const row = await remotes.load(deviceId);
    if (!row) throw new AppError('unauthorized', 'Could not validate device credentials');
    return row;
  }

  async function checkPassword(deviceId: number, password: string, address: string) {
    const key = `agent:${deviceId}|${address}`;
    const attempts = await authAttempts.failures(db, key, LOGIN_LIMIT.windowSeconds);
    if (attempts.failures >= LOGIN_LIMIT.perDeviceAndAddress) {
      throw rateLimited(attempts.retryAfterSeconds);
    }
    const device = await repo.credentials(db, deviceId);
    const valid = device
      ? await verifySecret(device.password_hash, password)
      : (await verifyDecoy(password), false);
    if (!device || !valid) {
      await authAttempts.recordFailure(db, key, LOGIN_LIMIT.windowSeconds);
      throw new AppError('unauthorized', 'Incorrect device id or password');
    }
    await authAttempts.clear(db, key);
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
      const row = await heartbeats.record({
        deviceId: token.subject,
        tokenVersion: token.tokenVersion,
        seen: new Date(),
        beat: storableBeat(beat),
      });
      if (!row) throw new AppError('unauthorized', 'Could not validate device credentials');
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
     * The device's bundle as JSON, or null when the agent's copy (ETag) is current and no flush
     * is asked. Rendered once per distinct content (bundle-cache.ts); a change that lands while
     * it renders makes it read the versions again, so an answer never names a version whose
     * content it does not carry.
     */
    async bundle(
      device: DevicePrincipal,
      ifNoneMatch: string | undefined,
    ): Promise<{ etag: string; json: string } | null> {
      let row = await remote(device.deviceId);
      if (row.flush_requested) await repo.clearFlush(db, device.deviceId);
      else if (ifNoneMatch === bundleEtag(row.config_version, row.policy_version)) return null;
      for (let attempt = 1; ; attempt++) {
        const etag = bundleEtag(row.config_version, row.policy_version);
        const json = await bundles.json(device.deviceId, row);
        if (json !== null) return { etag, json };
        if (attempt === BUNDLE_ATTEMPTS) {
          return { etag, json: await bundles.uncached(device.deviceId, row) };
        }
        row = await remote(device.deviceId);
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

    async applied(
      device: DevicePrincipal,
      body: {
        config_version: number;
        policy_version: number;
        ok: boolean;
        error?: string | null | undefined;
      },
    ) {
      await appliedReports.add({
        deviceId: device.deviceId,
        versions: body.ok ? { config: body.config_version, policy: body.policy_version } : null,
        error: body.ok ? null : storableText(body.error ?? 'apply failed (no detail given)'),
      });
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
      const stored = await db.transaction(async (tx) => {
        const claimed = await repo.claimBatch(tx, 'alerts_ack', device.deviceId, seq);
        if (claimed) {
          await repo.insertAlerts(tx, device.orgId, device.deviceId, records);
          await noteStoredAlerts(tx, device.orgId, device.deviceId, records);
          if (rejected.length > 0) {
            await repo.countRejectedAlerts(tx, device.deviceId, rejected.length);
          }
        }
        return { claimed, ack: await repo.ack(tx, 'alerts_ack', device.deviceId) };
      });
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

    async logs(
      device: DevicePrincipal,
      seq: number,
      lines: { time: string; level: string; msg: string }[],
    ) {
      const now = new Date().toISOString();
      const stamped = lines.map((line) => ({
        ...line,
        time: Number.isNaN(Date.parse(line.time)) ? now : line.time,
        msg: storableText(line.msg),
      }));
      const { ack } = await logBatches.add({
        deviceId: device.deviceId,
        orgId: device.orgId,
        seq,
        lines: stamped,
      });
      return { ack };
    },

    remote,

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
      await logBatches.flush();
      for (const notice of notices.values())
        if (notice.pending !== null) clearTimeout(notice.pending);
    },
  };
}
