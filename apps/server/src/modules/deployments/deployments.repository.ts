import type { DeployMode, OrganizationSettings } from '@palisade/contract';
import type { Queryable } from '../../db/client.js';

export interface SettingsRow {
  deploy_mode: DeployMode;
  canary_wait_minutes: number;
  canary_alert_factor: number;
  canary_heartbeat_grace_seconds: number;
}

/** A device's versions: what was saved last, or what a pointer names. */
export interface VersionsRow {
  config_version: number;
  config_sha256: string;
  policy_id: number | null;
  policy_version: number;
  policy_sha256: string;
}

export interface PinnedRow {
  device_id: number;
  config_sha256: string;
  policy_id: number | null;
  policy_sha256: string;
}

export interface PendingRow {
  device_id: number;
  device_name: string;
  saved: VersionsRow;
  /** Null: the device follows saves (immediate mode, or never pinned). */
  deployed: VersionsRow | null;
  in_deployment: number | null;
  /** The names of the saved and the deployed policies (null: none, or no pointer). */
  saved_policy_name: string | null;
  deployed_policy_name: string | null;
}

export interface DeploymentRow {
  id: number;
  org_id: number;
  status: 'canary' | 'deployed' | 'rolled_back';
  created_at: Date;
  created_by: string;
  canary_wait_minutes: number;
  canary_alert_factor: number;
  canary_heartbeat_grace_seconds: number;
  gate_due_at: Date | null;
  finished_at: Date | null;
  failure: unknown;
  device_count: number;
  canary_count: number;
}

export interface DeploymentDeviceRow {
  device_id: number;
  device_name: string;
  canary: boolean;
  from: VersionsRow | null;
  to: VersionsRow;
  moved_at: Date | null;
  rolled_back: boolean;
}

/** What the gate reads of one canary device. */
export interface CanaryRow {
  device_id: number;
  device_name: string;
  to: VersionsRow;
  moved_at: Date;
  config_version_local: number | null;
  policy_version_local: number | null;
  last_seen: Date | null;
  state: string | null;
  last_error: string | null;
}

/** The saved versions of a device (`d`, its policy `p`) as one JSON value. */
const SAVED = `json_build_object('config_version', d.config_version, 'config_sha256', d.config_sha256,
  'policy_id', d.policy_id, 'policy_version', coalesce(p.version, 0),
  'policy_sha256', coalesce(p.rendered_sha256, ''))`;
const POINTER = (alias: string, prefix = '') => `json_build_object(
  'config_version', ${alias}.${prefix}config_version, 'config_sha256', ${alias}.${prefix}config_sha256,
  'policy_id', ${alias}.${prefix}policy_id, 'policy_version', ${alias}.${prefix}policy_version,
  'policy_sha256', ${alias}.${prefix}policy_sha256)`;

const DEPLOYMENT_COLUMNS = `x.id, x.org_id, x.status, x.created_at, x.created_by, x.canary_wait_minutes,
  x.canary_alert_factor, x.canary_heartbeat_grace_seconds, x.gate_due_at, x.finished_at, x.failure,
  (SELECT count(*)::int FROM deployment_devices dd WHERE dd.deployment_id = x.id) AS device_count,
  (SELECT count(*)::int FROM deployment_devices dd WHERE dd.deployment_id = x.id AND dd.canary) AS canary_count`;

export const deploymentsRepository = {
  async settings(db: Queryable, orgId: number): Promise<SettingsRow | undefined> {
    const [row] = await db.query<SettingsRow>(
      `SELECT deploy_mode, canary_wait_minutes, canary_alert_factor, canary_heartbeat_grace_seconds
         FROM deploy_settings WHERE org_id = $1`,
      [orgId],
    );
    return row;
  },

  /** The settings row locked (created with the defaults first if missing). */
  async lockSettings(db: Queryable, orgId: number): Promise<SettingsRow> {
    await db.query('INSERT INTO deploy_settings (org_id) VALUES ($1) ON CONFLICT DO NOTHING', [
      orgId,
    ]);
    const [row] = await db.query<SettingsRow>(
      `SELECT deploy_mode, canary_wait_minutes, canary_alert_factor, canary_heartbeat_grace_seconds
         FROM deploy_settings WHERE org_id = $1 FOR UPDATE`,
      [orgId],
    );
    if (!row) throw new Error(`deploy settings of organization ${orgId} vanished`);
    return row;
  },

  async writeSettings(db: Queryable, orgId: number, settings: OrganizationSettings): Promise<void> {
    await db.query(
      `UPDATE deploy_settings SET deploy_mode = $2, canary_wait_minutes = $3, canary_alert_factor = $4,
              canary_heartbeat_grace_seconds = $5, updated_at = now()
        WHERE org_id = $1`,
      [
        orgId,
        settings.deploy_mode,
        settings.canary_wait_minutes,
        settings.canary_alert_factor,
        settings.canary_heartbeat_grace_seconds,
      ],
    );
  },

  /**
   * Pins devices of the organization (all, or those named) that follow saves at what was
   * saved last; ids of the devices pinned.
   */
  async pin(db: Queryable, orgId: number, deviceIds?: readonly number[]): Promise<PinnedRow[]> {
    return db.query<PinnedRow>(
      `INSERT INTO device_deployed (device_id, config_version, config_sha256, policy_id, policy_version, policy_sha256)
       SELECT d.id, d.config_version, d.config_sha256, d.policy_id, coalesce(p.version, 0),
              coalesce(p.rendered_sha256, '')
         FROM devices d LEFT JOIN policies p ON p.id = d.policy_id
        WHERE d.org_id = $1 AND ($2::int[] IS NULL OR d.id = ANY($2::int[]))
       ON CONFLICT (device_id) DO NOTHING
       RETURNING device_id, config_sha256, policy_id, policy_sha256`,
      [orgId, deviceIds ? [...deviceIds] : null],
    );
  },

  /** The digest of the configuration a pinned device was last deployed; undefined if unpinned. */
  async deployedConfigDigest(db: Queryable, deviceId: number): Promise<string | undefined> {
    const [row] = await db.query<{ config_sha256: string }>(
      'SELECT config_sha256 FROM device_deployed WHERE device_id = $1',
      [deviceId],
    );
    return row?.config_sha256;
  },

  /** Every device of the organization follows saves again. */
  async unpinAll(db: Queryable, orgId: number): Promise<number> {
    const rows = await db.query(
      `DELETE FROM device_deployed dd USING devices d
        WHERE d.id = dd.device_id AND d.org_id = $1 RETURNING dd.device_id`,
      [orgId],
    );
    return rows.length;
  },

  /** Each device of the organization (or those named) with its saved and deployed versions. */
  async devicesVersions(
    db: Queryable,
    orgId: number,
    deviceIds?: readonly number[],
  ): Promise<PendingRow[]> {
    return db.query<PendingRow>(
      `SELECT d.id AS device_id, d.name AS device_name, ${SAVED} AS saved,
              CASE WHEN dp.device_id IS NULL THEN NULL ELSE ${POINTER('dp')} END AS deployed,
              (SELECT max(x.id) FROM deployment_devices xd JOIN deployments x ON x.id = xd.deployment_id
                WHERE xd.device_id = d.id AND x.status = 'canary') AS in_deployment,
              p.name AS saved_policy_name,
              (SELECT q.name FROM policies q WHERE q.id = dp.policy_id) AS deployed_policy_name
         FROM devices d LEFT JOIN policies p ON p.id = d.policy_id
         LEFT JOIN device_deployed dp ON dp.device_id = d.id
        WHERE d.org_id = $1 AND ($2::int[] IS NULL OR d.id = ANY($2::int[]))
        ORDER BY lower(d.name), d.id`,
      [orgId, deviceIds ? [...deviceIds] : null],
    );
  },

  async insertDeployment(
    db: Queryable,
    row: {
      orgId: number;
      status: 'canary' | 'deployed';
      createdBy: string;
      settings: Omit<SettingsRow, 'deploy_mode'>;
      gateDueAt: Date | null;
    },
  ): Promise<number> {
    const [inserted] = await db.query<{ id: number }>(
      `INSERT INTO deployments (org_id, status, created_by, canary_wait_minutes, canary_alert_factor,
                                canary_heartbeat_grace_seconds, gate_due_at, finished_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $2 = 'deployed' THEN now() END)
       RETURNING id`,
      [
        row.orgId,
        row.status,
        row.createdBy,
        row.settings.canary_wait_minutes,
        row.settings.canary_alert_factor,
        row.settings.canary_heartbeat_grace_seconds,
        row.gateDueAt,
      ],
    );
    if (!inserted) throw new Error('deployment insert returned nothing');
    return inserted.id;
  },

  /**
   * The deployment's devices: each captured at its current pointer (from) and its saved
   * versions (to); the canaries, or every device when `moveAll`, are moved at once.
   */
  async addDevices(
    db: Queryable,
    deploymentId: number,
    devices: {
      id: number;
      canary: boolean;
      move: boolean;
      from: VersionsRow | null;
      to: VersionsRow;
    }[],
  ): Promise<void> {
    const input = JSON.stringify(devices);
    await db.query(
      `INSERT INTO deployment_devices (deployment_id, device_id, canary,
         from_config_version, from_config_sha256, from_policy_id, from_policy_version, from_policy_sha256,
         to_config_version, to_config_sha256, to_policy_id, to_policy_version, to_policy_sha256, moved_at)
       SELECT $1, i.id, i.canary,
              (i."from"->>'config_version')::int, i."from"->>'config_sha256', (i."from"->>'policy_id')::int,
              (i."from"->>'policy_version')::int, i."from"->>'policy_sha256',
              (i."to"->>'config_version')::int, i."to"->>'config_sha256', (i."to"->>'policy_id')::int,
              (i."to"->>'policy_version')::int, i."to"->>'policy_sha256',
              CASE WHEN i.move THEN now() END
         FROM json_to_recordset($2::json) AS i(id int, canary boolean, move boolean, "from" json, "to" json)`,
      [deploymentId, input],
    );
  },

  /** Moves the pointers of the deployment's devices (those `where` selects) to their targets. */
  async movePointers(
    db: Queryable,
    deploymentId: number,
    which: 'moved' | 'waiting',
  ): Promise<number[]> {
    const rows = await db.query<{ device_id: number }>(
      `WITH chosen AS (
         UPDATE deployment_devices SET moved_at = coalesce(moved_at, now())
          WHERE deployment_id = $1 AND ${which === 'moved' ? 'moved_at IS NOT NULL' : 'moved_at IS NULL'}
          RETURNING *
       )
       INSERT INTO device_deployed AS dp (device_id, config_version, config_sha256, policy_id, policy_version, policy_sha256, deployed_at)
       SELECT device_id, to_config_version, to_config_sha256, to_policy_id, to_policy_version, to_policy_sha256, now()
         FROM chosen
       ON CONFLICT (device_id) DO UPDATE
          SET config_version = excluded.config_version, config_sha256 = excluded.config_sha256,
              policy_id = excluded.policy_id, policy_version = excluded.policy_version,
              policy_sha256 = excluded.policy_sha256, deployed_at = now()
       RETURNING dp.device_id`,
      [deploymentId],
    );
    return rows.map((row) => row.device_id);
  },

  /** Moves the canaries' pointers back to where they were; ids of the devices moved back. */
  async rollBackCanaries(db: Queryable, deploymentId: number): Promise<number[]> {
    const rows = await db.query<{ device_id: number }>(
      `WITH back AS (
         UPDATE deployment_devices SET rolled_back = true
          WHERE deployment_id = $1 AND moved_at IS NOT NULL
          RETURNING *
       )
       -- Every device of a deployment was pinned first (from_* set): it goes back there.
       UPDATE device_deployed dp
          SET config_version = b.from_config_version, config_sha256 = b.from_config_sha256,
              policy_id = b.from_policy_id, policy_version = b.from_policy_version,
              policy_sha256 = b.from_policy_sha256, deployed_at = now()
         FROM back b
        WHERE dp.device_id = b.device_id AND b.from_config_version IS NOT NULL
       RETURNING dp.device_id`,
      [deploymentId],
    );
    return rows.map((row) => row.device_id);
  },

  async finish(
    db: Queryable,
    deploymentId: number,
    status: 'deployed' | 'rolled_back',
    failure: unknown,
  ): Promise<void> {
    await db.query(
      `UPDATE deployments SET status = $2, finished_at = now(), failure = $3::jsonb WHERE id = $1`,
      [deploymentId, status, failure === null ? null : JSON.stringify(failure)],
    );
  },

  async list(
    db: Queryable,
    orgId: number,
    page: { limit: number; offset: number },
  ): Promise<{ rows: DeploymentRow[]; total: number }> {
    const rows = await db.query<DeploymentRow>(
      `SELECT ${DEPLOYMENT_COLUMNS} FROM deployments x WHERE x.org_id = $1
        ORDER BY x.id DESC LIMIT $2 OFFSET $3`,
      [orgId, page.limit, page.offset],
    );
    const [count] = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM deployments WHERE org_id = $1',
      [orgId],
    );
    return { rows, total: count?.n ?? 0 };
  },

  async get(
    db: Queryable,
    orgId: number | null,
    id: number,
    options: { lock?: boolean } = {},
  ): Promise<DeploymentRow | undefined> {
    if (options.lock) {
      await db.query('SELECT id FROM deployments WHERE id = $1 FOR UPDATE', [id]);
    }
    const [row] = await db.query<DeploymentRow>(
      `SELECT ${DEPLOYMENT_COLUMNS} FROM deployments x
        WHERE x.id = $1 AND ($2::int IS NULL OR x.org_id = $2)`,
      [id, orgId],
    );
    return row;
  },

  async devices(db: Queryable, deploymentId: number): Promise<DeploymentDeviceRow[]> {
    return db.query<DeploymentDeviceRow>(
      `SELECT xd.device_id, d.name AS device_name, xd.canary,
              CASE WHEN xd.from_config_version IS NULL THEN NULL ELSE ${POINTER('xd', 'from_')} END AS "from",
              ${POINTER('xd', 'to_')} AS "to", xd.moved_at, xd.rolled_back
         FROM deployment_devices xd JOIN devices d ON d.id = xd.device_id
        WHERE xd.deployment_id = $1
        ORDER BY NOT xd.canary, lower(d.name), d.id`,
      [deploymentId],
    );
  },

  /** Canary deployments whose devices the gate must look at. */
  async canaryDeployments(db: Queryable): Promise<{ id: number; org_id: number }[]> {
    return db.query<{ id: number; org_id: number }>(
      `SELECT id, org_id FROM deployments WHERE status = 'canary' ORDER BY id`,
    );
  },

  /** The canaries of a deployment with what their agents reported. */
  async canaries(db: Queryable, deploymentId: number): Promise<CanaryRow[]> {
    return db.query<CanaryRow>(
      `SELECT xd.device_id, d.name AS device_name, ${POINTER('xd', 'to_')} AS "to", xd.moved_at,
              d.config_version_local, d.policy_version_local, d.last_seen, d.state, d.last_error
         FROM deployment_devices xd JOIN devices d ON d.id = xd.device_id
        WHERE xd.deployment_id = $1 AND xd.canary AND xd.moved_at IS NOT NULL
        ORDER BY xd.device_id`,
      [deploymentId],
    );
  },
};
