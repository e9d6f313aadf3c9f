import type { AgentHeartbeat } from '@palisade/contract';
import type { Queryable } from '../../db/client.js';
import { copyTextBytes, copyTextLine } from '../../db/copy-text.js';

export interface RemoteVersions {
  /** The device's token version now: a stream opened with an older token is revoked. */
  token_version: number;
  config_version: number;
  policy_version: number;
  policy_id: number | null;
  flush_requested: boolean;
  config_version_local: number | null;
  policy_version_local: number | null;
  heartbeat_interval: number;
  /** Digests of what the device's bundle renders (its cache key, see bundle-cache.ts). */
  config_sha256: string;
  policy_sha256: string;
}

/** A heartbeat as received, with who sent it (its token) and when. */
export interface HeartbeatWrite {
  deviceId: number;
  tokenVersion: number;
  seen: Date;
  beat: AgentHeartbeat;
  /** Answered before its write (a routine beat): its device's row is not read back for it. */
  answered?: boolean;
}

/** What a heartbeat's device looks like after it was recorded. */
export interface HeartbeatRow {
  id: number;
  org_id: number;
  token_version: number;
  config_version: number;
  policy_version: number;
  policy_id: number | null;
  flush_requested: boolean;
  heartbeat_interval: number;
  /** The agent upgrade asked of the device, while it stands. */
  upgrade_id: number | null;
  upgrade_version: string | null;
}

/** An agent's report on applying a bundle: its versions, or (null) the error it failed with. */
export interface AppliedReport {
  deviceId: number;
  /** The version of the token the report came with: a revoked token's report is refused. */
  tokenVersion: number;
  versions: { config: number; policy: number } | null;
  error: string | null;
  /** When the server received it: a heartbeat received earlier no longer sets the versions. */
  received: Date;
}

/** A device's numbered batch of log lines. */
export interface LogBatch {
  deviceId: number;
  /** The version of the token the batch came with: a revoked token's batch is refused. */
  tokenVersion: number;
  seq: number;
  lines: { time: string; level: string; msg: string }[];
}

/** The policy a device ran when its alerts arrived (see claimAlertBatches). */
export interface AlertPolicy {
  policy_id: number | null;
  policy_version: number | null;
}

/** A device's alert batch, read out of its events: stored once per seq. */
export interface AlertBatch {
  orgId: number;
  deviceId: number;
  seq: number;
  records: AlertRecord[];
  /** Events of the batch that were not stored (the device's count of them grows). */
  rejected: number;
}

/** One alert row, read out of an eve.json alert event. */
export interface AlertRecord {
  time: string;
  gid: number | null;
  sid: number | null;
  rev: number | null;
  msg: string | null;
  category: string | null;
  severity: number | null;
  action: string | null;
  proto: string | null;
  appProto: string | null;
  srcIp: string | null;
  srcPort: number | null;
  destIp: string | null;
  destPort: number | null;
  flowId: string | null;
  event: string;
}

/**
 * What a device (`d`, its policy `p`) is served: in an organization that stages its changes,
 * the versions last deployed to it (`device_deployed` as `dp`, see modules/deployments);
 * without a pointer, what was saved last. One join on a primary key: the hot paths (heartbeats,
 * bundle pulls, pushes) keep their statements.
 */
const SERVED = {
  config_version: 'CASE WHEN dp.device_id IS NULL THEN d.config_version ELSE dp.config_version END',
  config_sha256: 'CASE WHEN dp.device_id IS NULL THEN d.config_sha256 ELSE dp.config_sha256 END',
  policy_id: 'CASE WHEN dp.device_id IS NULL THEN d.policy_id ELSE dp.policy_id END',
  policy_version:
    'CASE WHEN dp.device_id IS NULL THEN coalesce(p.version, 0) ELSE dp.policy_version END',
  policy_sha256:
    "CASE WHEN dp.device_id IS NULL THEN coalesce(p.rendered_sha256, '') ELSE dp.policy_sha256 END",
} as const;

/** A heartbeat `b` ends its device's upgrade request: it reports on it, or runs its version. */
const UPGRADE_ENDED = '(b.upgrade_id = d.upgrade_id OR b.agent_version = d.upgrade_version)';

/** The beat came after the device's last apply report (see migration local_reported_at). */
const BEAT_IS_NEWER = `(d.local_reported_at IS NULL OR b.seen >= d.local_reported_at)`;

export const agentRepository = {
  async credentials(db: Queryable, deviceId: number) {
    const [row] = await db.query<{ id: number; password_hash: string; token_version: number }>(
      'SELECT id, password_hash, token_version FROM devices WHERE id = $1',
      [deviceId],
    );
    return row;
  },

  /** A device's name, for the records of what its agent did. */
  async deviceName(db: Queryable, deviceId: number): Promise<string | undefined> {
    const [row] = await db.query<{ name: string }>('SELECT name FROM devices WHERE id = $1', [
      deviceId,
    ]);
    return row?.name;
  },

  /** The remote versions of many devices at once (a change reaches a whole fleet together). */
  async remotes(
    db: Queryable,
    deviceIds: readonly number[],
  ): Promise<(RemoteVersions & { id: number })[]> {
    return db.query<RemoteVersions & { id: number }>(
      `SELECT d.id, d.token_version, ${SERVED.config_version} AS config_version,
              ${SERVED.policy_version} AS policy_version, ${SERVED.policy_id} AS policy_id, d.flush_requested,
              d.config_version_local, d.policy_version_local, d.heartbeat_interval,
              ${SERVED.config_sha256} AS config_sha256, ${SERVED.policy_sha256} AS policy_sha256
         FROM devices d LEFT JOIN device_deployed dp ON dp.device_id = d.id
         LEFT JOIN policies p ON p.id = d.policy_id WHERE d.id = ANY($1::int[])`,
      [[...deviceIds]],
    );
  },

  /**
   * Records many devices' heartbeats (state, local versions, metrics sample with the sensor's
   * health rates, its latest Suricata stats) and reads their
   * remote versions back, in one statement: a fleet's heartbeats are the server's most frequent
   * call, so they are written together (see heartbeat-batch.ts). A beat counts only while its
   * token's version is still the device's: a revoked token or a deleted device gets no row.
   * Rows come back only for devices with a beat that was not `answered` already.
   */
  async heartbeats(db: Queryable, beats: readonly HeartbeatWrite[]): Promise<HeartbeatRow[]> {
    // One JSON parameter: serialised natively, where 17 array parameters were escaped in JS.
    const input = JSON.stringify(
      beats.map(({ deviceId, tokenVersion, seen, beat, answered }, n) => ({
        n,
        answered: answered === true,
        id: deviceId,
        token_version: tokenVersion,
        seen,
        state: beat.state,
        agent_version: beat.agent_version,
        config_local: beat.local.config_version,
        policy_local: beat.local.policy_version,
        metrics: beat.metrics ?? null,
        health: beat.health ?? null,
        firewall: beat.firewall ?? null,
        set_error: beat.last_error !== undefined,
        last_error: beat.last_error ?? null,
        server_endpoint: beat.server_endpoint ?? null,
        upgrade_id: beat.upgrade?.id ?? null,
        upgrade_failed: beat.upgrade?.status === 'failed',
        upgrade_error: beat.upgrade?.error ?? null,
      })),
    );
    return db.query<HeartbeatRow>(
      {
        // Prepared: a fleet sends these all the time.
        name: 'record_heartbeats',
        text: `WITH input AS (
         SELECT * FROM json_to_recordset($1::json)
           AS b(n int, answered boolean, id int, token_version int, seen timestamptz, state text, agent_version text,
                config_local int, policy_local int, metrics jsonb, health jsonb, firewall jsonb, set_error boolean, last_error text,
                server_endpoint jsonb, upgrade_id bigint, upgrade_failed boolean, upgrade_error text)
       ), latest AS (
         -- Two beats of a device in one batch may share a millisecond: the later one read wins.
         SELECT DISTINCT ON (id) * FROM input ORDER BY id, seen DESC, n DESC
       ), locked AS (
         -- Rows locked in id order: group writes of heartbeats, apply reports and log batches
         -- run at once, and rows taken in any other order could deadlock them.
         SELECT id FROM devices WHERE id IN (SELECT id FROM latest) ORDER BY id FOR NO KEY UPDATE
       ), beat AS (
         -- An upgrade request ends when the agent reports it done or failed, or runs its version;
         -- a failure's reason becomes the device's last error.
         UPDATE devices d SET last_seen = b.seen, state = b.state, agent_version = b.agent_version,
                -- A beat received before the last apply report carries the versions from before it.
                config_version_local = CASE WHEN ${BEAT_IS_NEWER} THEN b.config_local
                                            ELSE d.config_version_local END,
                policy_version_local = CASE WHEN ${BEAT_IS_NEWER} THEN b.policy_local
                                            ELSE d.policy_version_local END,
                metrics = coalesce(b.metrics, d.metrics),
                sensor = coalesce(b.health, d.sensor),
                firewall_drift = coalesce(b.firewall, d.firewall_drift),
                server_endpoint = coalesce(b.server_endpoint, d.server_endpoint),
                last_error = CASE
                  WHEN b.upgrade_failed AND b.upgrade_id = d.upgrade_id
                    THEN coalesce(b.upgrade_error, 'The agent upgrade to ' || d.upgrade_version || ' failed')
                  WHEN b.set_error THEN b.last_error ELSE d.last_error END,
                upgrade_version = CASE WHEN ${UPGRADE_ENDED} THEN NULL ELSE d.upgrade_version END,
                upgrade_id = CASE WHEN ${UPGRADE_ENDED} THEN NULL ELSE d.upgrade_id END,
                upgrade_requested_at = CASE WHEN ${UPGRADE_ENDED} THEN NULL ELSE d.upgrade_requested_at END
           FROM latest b
          WHERE d.id = b.id AND d.token_version = b.token_version AND d.id IN (SELECT id FROM locked)
          RETURNING d.id, d.org_id, d.token_version, d.config_version, d.policy_id, d.flush_requested,
                    d.heartbeat_interval, d.upgrade_id, d.upgrade_version
       ), sample AS (
         INSERT INTO device_metrics (device_id, time, cpu, memory_used, memory_total, disk_used, disk_total, net_in, net_out,
                                     drop_percent, alerts_per_min, rules_loaded, rules_failed)
         SELECT i.id, i.seen, (i.metrics->>'cpu')::real, (i.metrics->>'memory_used')::bigint,
                (i.metrics->>'memory_total')::bigint, (i.metrics->>'disk_used')::bigint,
                (i.metrics->>'disk_total')::bigint, (i.metrics->>'net_in')::float8,
                (i.metrics->>'net_out')::float8, (i.health->>'drop_percent')::real,
                (i.health->>'alerts_per_min')::real, (i.health->>'rules_loaded')::int,
                (i.health->>'rules_failed')::int
           FROM input i JOIN beat ON beat.id = i.id
          WHERE i.metrics IS NOT NULL
          -- Samples of one millisecond keep the later beat's: it is inserted first.
          ORDER BY i.n DESC
         ON CONFLICT DO NOTHING
       )
       SELECT d.id, d.org_id, d.token_version, ${SERVED.config_version} AS config_version,
              ${SERVED.policy_version} AS policy_version, ${SERVED.policy_id} AS policy_id,
              d.flush_requested, d.heartbeat_interval, d.upgrade_id::float8 AS upgrade_id, d.upgrade_version
         FROM beat d LEFT JOIN device_deployed dp ON dp.device_id = d.id
         LEFT JOIN policies p ON p.id = d.policy_id
        WHERE d.id IN (SELECT id FROM input WHERE NOT answered)`,
      },
      [input],
    );
  },

  async clearFlush(db: Queryable, deviceId: number) {
    await db.query('UPDATE devices SET flush_requested = false WHERE id = $1', [deviceId]);
  },

  /**
   * Records many devices' apply reports in one statement (a change that reaches a fleet brings
   * them together): an applied report sets the device's local versions and clears its error, a
   * failed one sets its error. Of two reports of one device, the later one counts. The token of
   * each report is checked against the device's row in the same statement (a revoked token or a
   * deleted device gets no row and nothing written): answers, per report in its order, the
   * device's organization, or null when refused.
   */
  async appliedMany(
    db: Queryable,
    reports: readonly AppliedReport[],
  ): Promise<({ orgId: number } | null)[]> {
    const input = JSON.stringify(
      reports.map((report, order) => ({
        id: report.deviceId,
        tv: report.tokenVersion,
        ord: order,
        ok: report.versions !== null,
        config: report.versions?.config ?? null,
        policy: report.versions?.policy ?? null,
        error: report.error,
        received: report.received,
      })),
    );
    const rows = await db.query<{ ord: number; org_id: number }>(
      {
        // Prepared: a fleet sends these all the time.
        name: 'apply_reports',
        text: `WITH input AS (
         SELECT * FROM json_to_recordset($1::json)
             AS r(id int, tv int, ord int, ok boolean, config int, policy int, error text,
                  received timestamptz)
       ), locked AS (
         -- Rows locked in id order: group writes of heartbeats, apply reports and log batches
         -- run at once, and rows taken in any other order could deadlock them.
         SELECT id, org_id, token_version FROM devices WHERE id IN (SELECT id FROM input)
          ORDER BY id FOR NO KEY UPDATE
       ), valid AS (
         SELECT r.*, l.org_id FROM input r JOIN locked l ON l.id = r.id AND l.token_version = r.tv
       ), latest AS (
         SELECT DISTINCT ON (id) * FROM valid ORDER BY id, ord DESC
       ), updated AS (
         UPDATE devices d
            SET config_version_local = CASE WHEN r.ok THEN r.config ELSE d.config_version_local END,
                policy_version_local = CASE WHEN r.ok THEN r.policy ELSE d.policy_version_local END,
                local_reported_at = CASE WHEN r.ok THEN r.received ELSE d.local_reported_at END,
                last_error = CASE WHEN r.ok THEN NULL ELSE r.error END,
                state = CASE WHEN r.ok THEN 'running' ELSE 'error' END
           FROM latest r
          WHERE d.id = r.id
       )
       SELECT ord, org_id FROM valid`,
      },
      [input],
    );
    const orgByOrder = new Map(rows.map((row) => [row.ord, row.org_id]));
    return reports.map((_, order) => {
      const orgId = orgByOrder.get(order);
      return orgId === undefined ? null : { orgId };
    });
  },

  /**
   * Raises each device's acknowledged alert batch number to its batch's seq, and answers, for
   * each device whose batch this claimed, the policy it runs (the one last deployed to it, else
   * the one assigned) with the policy version it last applied. A device left out already
   * stored that seq (a retried batch): nothing else of it may be written. A device appears at
   * most once in `batches` (the caller splits repeats into rounds).
   */
  async claimAlertBatches(
    db: Queryable,
    batches: readonly { deviceId: number; seq: number }[],
  ): Promise<Map<number, AlertPolicy>> {
    const rows = await db.query<AlertPolicy & { id: number }>(
      {
        // Prepared: a fleet sends these all the time.
        name: 'claim_alert_batches',
        text: `WITH input AS (
         SELECT * FROM unnest($1::int[], $2::bigint[]) AS i(id, seq)
       ), locked AS (
         -- Rows locked in id order, as the other group writes of devices take them.
         SELECT id FROM devices WHERE id IN (SELECT id FROM input) ORDER BY id FOR NO KEY UPDATE
       )
       UPDATE devices d SET alerts_ack = i.seq
         FROM input i
        WHERE d.id = i.id AND d.id IN (SELECT id FROM locked) AND d.alerts_ack < i.seq
       RETURNING d.id,
                 CASE WHEN EXISTS (SELECT FROM device_deployed dp WHERE dp.device_id = d.id)
                      -- Deployed without a policy is none, whatever was saved since.
                      THEN (SELECT dp.policy_id FROM device_deployed dp WHERE dp.device_id = d.id)
                      ELSE d.policy_id END AS policy_id,
                 d.policy_version_local AS policy_version`,
      },
      [batches.map((b) => b.deviceId), batches.map((b) => b.seq)],
    );
    return new Map(
      rows.map(({ id, policy_id, policy_version }) => [id, { policy_id, policy_version }]),
    );
  },

  /** Alert events of stored batches that were not stored: the console shows their count. */
  async countRejectedAlerts(db: Queryable, counts: readonly { deviceId: number; count: number }[]) {
    if (counts.length === 0) return;
    await db.query(
      `UPDATE devices d SET alerts_rejected = d.alerts_rejected + r.count
         FROM unnest($1::int[], $2::int[]) AS r(id, count) WHERE d.id = r.id`,
      [counts.map((c) => c.deviceId), counts.map((c) => c.count)],
    );
  },

  /** The acknowledged alert batch number of each device (absent: the device is gone). */
  async alertAcks(db: Queryable, deviceIds: readonly number[]): Promise<Map<number, number>> {
    const rows = await db.query<{ id: number; ack: string }>(
      `SELECT id, alerts_ack::bigint AS ack FROM devices WHERE id = ANY($1::int[])`,
      [[...deviceIds]],
    );
    return new Map(rows.map((row) => [row.id, Number(row.ack)]));
  },

  /**
   * Bulk-loads alerts with COPY, one statement for many devices' batches: the ingest path of a
   * whole fleet. The caller has read the devices in this transaction (their batch claims), so
   * the embedded database may skip the per-row device check.
   */
  async insertAlerts(
    db: Queryable,
    batches: readonly {
      orgId: number;
      deviceId: number;
      policy: AlertPolicy;
      alerts: AlertRecord[];
    }[],
  ) {
    const rows: string[] = [];
    for (const { orgId, deviceId, policy, alerts } of batches) {
      for (const a of alerts) {
        rows.push(
          copyTextLine([
            orgId,
            deviceId,
            a.time,
            a.gid,
            a.sid,
            a.rev,
            a.msg,
            a.category,
            a.severity,
            a.action,
            a.proto,
            a.appProto,
            a.srcIp,
            a.srcPort,
            a.destIp,
            a.destPort,
            a.flowId,
            a.event,
            policy.policy_id,
            policy.policy_version,
          ]),
        );
      }
    }
    if (rows.length === 0) return;
    await db.copyFrom(
      `COPY device_alerts (org_id, device_id, time, gid, sid, rev, msg, category, severity, action, proto,
                           app_proto, src_ip, src_port, dest_ip, dest_port, flow_id, event,
                           policy_id, policy_version)
       FROM STDIN`,
      copyTextBytes(rows),
      { referencesRead: true },
    );
  },

  /**
   * Stores many devices' log batches in one statement, each only if its seq is above the
   * device's acknowledged one (raised in the same statement), and answers each batch's ack and
   * the device's organization. The token of each batch is checked against the device's row in
   * the same statement: a revoked token or a deleted device gets no row and nothing stored.
   * A device appears at most once in `batches` (the caller splits repeats into rounds).
   */
  async storeLogBatches(
    db: Queryable,
    batches: readonly LogBatch[],
  ): Promise<{ id: number; orgId: number; claimed: boolean; ack: number }[]> {
    const input = JSON.stringify(
      batches.map(({ deviceId, tokenVersion, seq, lines }) => ({
        id: deviceId,
        tv: tokenVersion,
        seq,
        lines,
      })),
    );
    const rows = await db.query<{ id: number; org_id: number; claimed: boolean; ack: string }>(
      {
        // Prepared: a fleet sends these all the time.
        name: 'store_log_batches',
        text: `WITH input AS (
         SELECT * FROM json_to_recordset($1::json) AS b(id int, tv int, seq bigint, lines json)
       ), locked AS (
         -- Rows locked in id order: group writes of heartbeats, apply reports and log batches
         -- run at once, and rows taken in any other order could deadlock them.
         SELECT id, org_id, token_version, logs_ack FROM devices
          WHERE id IN (SELECT id FROM input) ORDER BY id FOR NO KEY UPDATE
       ), valid AS (
         SELECT i.*, l.org_id, l.logs_ack
           FROM input i JOIN locked l ON l.id = i.id AND l.token_version = i.tv
       ), claimed AS (
         UPDATE devices d SET logs_ack = v.seq FROM valid v
          WHERE d.id = v.id AND v.logs_ack < v.seq
          RETURNING d.id
       ), stored AS (
         INSERT INTO device_logs (device_id, time, level, msg)
         SELECT v.id, l.time, l.level, l.msg
           FROM valid v JOIN claimed c ON c.id = v.id
          CROSS JOIN LATERAL json_to_recordset(v.lines) AS l(time timestamptz, level text, msg text)
       )
       SELECT v.id, v.org_id, c.id IS NOT NULL AS claimed,
              (CASE WHEN c.id IS NOT NULL THEN v.seq ELSE v.logs_ack END)::text AS ack
         FROM valid v LEFT JOIN claimed c ON c.id = v.id`,
      },
      [input],
    );
    return rows.map((row) => ({
      id: row.id,
      orgId: row.org_id,
      claimed: row.claimed,
      ack: Number(row.ack),
    }));
  },
};
