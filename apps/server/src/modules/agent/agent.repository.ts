import type { AgentHeartbeat } from '@palisade/contract';
import type { Queryable } from '../../db/client.js';
import { csvLine } from '../../db/csv.js';

export interface RemoteVersions {
  config_version: number;
  policy_version: number;
  policy_id: number | null;
  flush_requested: boolean;
  config_version_local: number | null;
  policy_version_local: number | null;
  heartbeat_interval: number;
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

export const agentRepository = {
  async credentials(db: Queryable, deviceId: number) {
    const [row] = await db.query<{ id: number; password_hash: string; token_version: number }>(
      'SELECT id, password_hash, token_version FROM devices WHERE id = $1',
      [deviceId],
    );
    return row;
  },

  async remote(db: Queryable, deviceId: number): Promise<RemoteVersions | undefined> {
    const [row] = await db.query<RemoteVersions>(
      `SELECT d.config_version, coalesce(p.version, 0) AS policy_version, d.policy_id, d.flush_requested,
              d.config_version_local, d.policy_version_local, d.heartbeat_interval
         FROM devices d LEFT JOIN policies p ON p.id = d.policy_id WHERE d.id = $1`,
      [deviceId],
    );
    return row;
  },

  /**
   * Records a heartbeat (state, local versions, metrics sample) and reads the remote versions
   * back, in one statement: a fleet's heartbeats are the server's most frequent call.
   */
  async heartbeat(
    db: Queryable,
    deviceId: number,
    beat: AgentHeartbeat,
  ): Promise<RemoteVersions | undefined> {
    const m = beat.metrics;
    const [row] = await db.query<RemoteVersions>(
      `WITH beat AS (
         UPDATE devices SET last_seen = now(), state = $2, agent_version = $3,
                config_version_local = $4, policy_version_local = $5,
                metrics = coalesce($6::jsonb, metrics),
                last_error = CASE WHEN $7::boolean THEN $8 ELSE last_error END
          WHERE id = $1
          RETURNING id, config_version, policy_id, flush_requested, config_version_local, policy_version_local,
                    heartbeat_interval
       ), sample AS (
         INSERT INTO device_metrics (device_id, time, cpu, memory_used, memory_total, disk_used, disk_total, net_in, net_out)
         SELECT $1, now(), $9, $10, $11, $12, $13, $14, $15 WHERE $6::jsonb IS NOT NULL
         ON CONFLICT DO NOTHING
       )
       SELECT b.config_version, coalesce(p.version, 0) AS policy_version, b.policy_id, b.flush_requested,
              b.config_version_local, b.policy_version_local, b.heartbeat_interval
         FROM beat b LEFT JOIN policies p ON p.id = b.policy_id`,
      [
        deviceId,
        beat.state,
        beat.agent_version,
        beat.local.config_version,
        beat.local.policy_version,
        m ? JSON.stringify(m) : null,
        beat.last_error !== undefined,
        beat.last_error ?? null,
        m?.cpu ?? null,
        m?.memory_used ?? null,
        m?.memory_total ?? null,
        m?.disk_used ?? null,
        m?.disk_total ?? null,
        m?.net_in ?? null,
        m?.net_out ?? null,
      ],
    );
    return row;
  },

  async clearFlush(db: Queryable, deviceId: number) {
    await db.query('UPDATE devices SET flush_requested = false WHERE id = $1', [deviceId]);
  },

  async applied(
    db: Queryable,
    deviceId: number,
    versions: { config: number; policy: number } | null,
    error: string | null,
  ) {
    if (versions) {
      await db.query(
        `UPDATE devices SET config_version_local = $2, policy_version_local = $3, last_error = NULL, state = 'running'
          WHERE id = $1`,
        [deviceId, versions.config, versions.policy],
      );
    } else {
      await db.query(`UPDATE devices SET last_error = $2, state = 'error' WHERE id = $1`, [
        deviceId,
        error,
      ]);
    }
  },

  /**
   * Raises the device's acknowledged batch number to seq; false when seq was already stored
   * (a retried batch), in which case nothing else may be written.
   */
  async claimBatch(
    db: Queryable,
    column: 'alerts_ack' | 'logs_ack',
    deviceId: number,
    seq: number,
  ): Promise<boolean> {
    const rows = await db.query(
      `UPDATE devices SET ${column} = $2 WHERE id = $1 AND ${column} < $2 RETURNING id`,
      [deviceId, seq],
    );
    return rows.length > 0;
  },

  async ack(db: Queryable, column: 'alerts_ack' | 'logs_ack', deviceId: number): Promise<number> {
    const [row] = await db.query<{ ack: number }>(
      `SELECT ${column}::bigint AS ack FROM devices WHERE id = $1`,
      [deviceId],
    );
    return Number(row?.ack ?? 0);
  },

  /** Bulk-loads alerts with COPY: the ingest path of a whole fleet. */
  async insertAlerts(db: Queryable, orgId: number, deviceId: number, alerts: AlertRecord[]) {
    if (alerts.length === 0) return;
    let csv = '';
    for (const a of alerts) {
      csv += csvLine([
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
      ]);
    }
    await db.copyFrom(
      `COPY device_alerts (org_id, device_id, time, gid, sid, rev, msg, category, severity, action, proto,
                           app_proto, src_ip, src_port, dest_ip, dest_port, flow_id, event)
       FROM STDIN WITH (FORMAT csv)`,
      csv,
    );
  },

  async insertLogs(
    db: Queryable,
    deviceId: number,
    lines: { time: string; level: string; msg: string }[],
  ) {
    if (lines.length === 0) return;
    await db.query(
      `INSERT INTO device_logs (device_id, time, level, msg)
       SELECT $1, * FROM unnest($2::timestamptz[], $3::text[], $4::text[])`,
      [deviceId, lines.map((l) => l.time), lines.map((l) => l.level), lines.map((l) => l.msg)],
    );
  },
};
