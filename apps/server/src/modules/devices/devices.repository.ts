import type { DeviceMetrics, DeviceNetwork, FirewallDrift, SensorHealth } from '@palisade/contract';
import type { Queryable } from '../../db/client.js';
import type { ServerEndpoint } from '@palisade/firewall';
import { pagedList, type ListSql, type ListSpec } from '../../db/list-query.js';
import { DEFAULT_HEALTH_DROP_PERCENT } from './device-health.js';

export interface DeviceRow {
  id: number;
  org_id: number;
  name: string;
  description: string;
  address: string;
  city: string;
  licensed: boolean;
  profile_id: number | null;
  policy_id: number | null;
  firewall_id: number | null;
  online: boolean;
  last_seen: Date | null;
  config_version_local: number | null;
  config_version_remote: number;
  policy_version_local: number | null;
  policy_version_remote: number;
  flush_requested: boolean;
  last_error: string | null;
  state: string | null;
  agent_version: string | null;
  metrics: DeviceMetrics | null;
  sensor: SensorHealth | null;
  firewall_drift: FirewallDrift | null;
  policy_rules: number | null;
  alerts_rejected: number;
  heartbeat_interval: number;
  upgrade_version: string | null;
  upgrade_requested_at: Date | null;
  updated_at: Date;
}

const ONLINE =
  'coalesce(d.last_seen > now() - make_interval(secs => d.heartbeat_interval * 3), false)';
/**
 * The remote versions are those the device is served: what was saved last, or, in an
 * organization that stages its changes, what was last deployed to it (`device_deployed`, see
 * modules/deployments): "update pending" waits for the agent, not for a deploy.
 */
const REMOTE_CONFIG = 'coalesce(dp.config_version, d.config_version)';
const REMOTE_POLICY =
  'CASE WHEN dp.device_id IS NULL THEN coalesce(p.version, 0) ELSE dp.policy_version END';
const FROM_DEVICES = `FROM devices d LEFT JOIN policies p ON p.id = d.policy_id
  LEFT JOIN device_deployed dp ON dp.device_id = d.id`;
const PENDING = `(d.flush_requested OR d.config_version_local IS DISTINCT FROM ${REMOTE_CONFIG}
  OR d.policy_version_local IS DISTINCT FROM ${REMOTE_POLICY})`;

/**
 * The rules the policy version the device runs renders: that version's recorded count, or the
 * policy's own while that version is its current one.
 */
const POLICY_RULES = `coalesce(
    (SELECT (v.summary->>'rule_count')::int FROM object_versions v
      WHERE v.kind = 'policy' AND v.object_id = d.policy_id AND v.version = d.policy_version_local),
    CASE WHEN d.policy_version_local = p.version THEN p.rule_count END)`;

export const SELECT_DEVICE = `SELECT d.id, d.org_id, d.name, d.description, d.address, d.city, d.licensed,
    d.profile_id, d.policy_id, d.firewall_id, ${ONLINE} AS online, d.last_seen,
    d.config_version_local, ${REMOTE_CONFIG} AS config_version_remote, d.policy_version_local,
    ${REMOTE_POLICY} AS policy_version_remote, d.flush_requested, d.last_error, d.state,
    d.agent_version, d.metrics, d.sensor, d.firewall_drift, ${POLICY_RULES} AS policy_rules,
    d.alerts_rejected::float8 AS alerts_rejected,
    d.heartbeat_interval, d.upgrade_version, d.upgrade_requested_at, d.updated_at
  ${FROM_DEVICES}`;

/**
 * The device's health as deviceHealth (device-health.ts) finds it: unknown without Suricata
 * stats, degraded when an engine failed to load rules or it drops more than `dropPercent`.
 */
const healthSql = (dropPercent: number) => `CASE
    WHEN d.sensor IS NULL OR jsonb_typeof(d.sensor) = 'null' THEN 'unknown'
    WHEN coalesce((d.sensor->>'rules_failed')::float8, 0) > 0
      OR coalesce((d.sensor->>'drop_percent')::float8, 0) > ${Number(dropPercent)}::float8
      THEN 'degraded'
    ELSE 'ok' END`;

/**
 * The firewall differs from what Palisade applied, or was changed outside Palisade (and
 * re-applied by the agent) within the last day.
 */
const DRIFTED = `coalesce((d.firewall_drift->>'drift')::boolean
    OR (d.firewall_drift->>'reapplied_at')::timestamptz > now() - interval '1 day', false)`;

/** The device list's fields; `dropPercent` is HEALTH_DROP_PERCENT, for `health:degraded`. */
export const deviceListSpec = (dropPercent = DEFAULT_HEALTH_DROP_PERCENT): ListSpec => ({
  sortable: {
    id: 'd.id',
    name: 'lower(d.name)',
    address: 'd.address',
    city: 'd.city',
    last_seen: 'd.last_seen',
    online: ONLINE,
    update_pending: PENDING,
    licensed: 'd.licensed',
    updated_at: 'd.updated_at',
    drop_percent: "(d.sensor->>'drop_percent')::real",
    alerts_per_min: "(d.sensor->>'alerts_per_min')::real",
    rules_loaded: "(d.sensor->>'rules_loaded')::int",
    rules_failed: "(d.sensor->>'rules_failed')::int",
  },
  nullable: ['last_seen', 'drop_percent', 'alerts_per_min', 'rules_loaded', 'rules_failed'],
  filterable: {
    name: { sql: 'd.name', type: 'text' },
    city: { sql: 'd.city', type: 'text' },
    licensed: { sql: 'd.licensed', type: 'bool' },
    online: { sql: ONLINE, type: 'bool' },
    update_pending: { sql: PENDING, type: 'bool' },
    policy_id: { sql: 'd.policy_id', type: 'int' },
    profile_id: { sql: 'd.profile_id', type: 'int' },
    firewall_id: { sql: 'd.firewall_id', type: 'int' },
    id: { sql: 'd.id', type: 'ids' },
    /** The firewall was found changed outside Palisade (see DRIFTED). */
    firewall_drift: { sql: DRIFTED, type: 'bool' },
    /** The last apply failed (the agent reported an error). */
    error: { sql: 'd.last_error IS NOT NULL', type: 'bool' },
    health: {
      type: 'custom',
      cast: 'text',
      values: ['ok', 'degraded', 'unknown'],
      condition: (param) => `${healthSql(dropPercent)} = ${param}`,
    },
  },
  searchable: ['d.name', 'd.description', 'd.address', 'd.city', 'd.last_error'],
  defaultSort: 'd.id ASC',
});

export interface DeviceFields {
  name?: string;
  description?: string;
  address?: string;
  city?: string;
  licensed?: boolean;
  passwordHash?: string;
  profileId?: number | null;
  policyId?: number | null;
  firewallId?: number | null;
}

/** A device as the dashboard names it: [id, name]. */
export type NamedDevice = [number, string];

export interface DeviceSummaryRow {
  total: number;
  offline: number;
  pending: number;
  errors: number;
  unhealthy: number;
  drifted: number;
  offline_devices: NamedDevice[];
  pending_devices: NamedDevice[];
  errors_devices: NamedDevice[];
  unhealthy_devices: NamedDevice[];
  drifted_devices: NamedDevice[];
}

/**
 * The first `$2` devices of `f` (the summary's devices) meeting `where`, in `order`, as one
 * JSON array of [id, name].
 */
const namedSql = (where: string, order: string) => `(SELECT coalesce(
    json_agg(json_build_array(x.id, x.name) ORDER BY x.rank), '[]'::json)
  FROM (SELECT f.id, f.name, row_number() OVER (ORDER BY ${order}) AS rank
          FROM f WHERE ${where} ORDER BY ${order} LIMIT $2) x)`;

/**
 * The dashboard's figures in one statement: each problem's count over the whole fleet (the
 * list's own filters: online, update_pending, error, health) and its first `named` devices.
 */
const summarySql = (dropPercent: number) => `WITH f AS MATERIALIZED (
    SELECT d.id, d.name, d.last_seen, ${ONLINE} AS online, ${PENDING} AS pending,
           d.last_error IS NOT NULL AS error, ${healthSql(dropPercent)} = 'degraded' AS degraded,
           ${DRIFTED} AS drifted
      ${FROM_DEVICES} WHERE d.org_id = $1),
  c AS (SELECT count(*)::int AS total, count(*) FILTER (WHERE NOT f.online)::int AS offline,
               count(*) FILTER (WHERE f.pending)::int AS pending,
               count(*) FILTER (WHERE f.error)::int AS errors,
               count(*) FILTER (WHERE f.degraded)::int AS unhealthy,
               count(*) FILTER (WHERE f.drifted)::int AS drifted
          FROM f)
  SELECT c.*,
    ${namedSql('NOT f.online', 'f.last_seen DESC NULLS LAST, f.id DESC')} AS offline_devices,
    ${namedSql('f.pending', 'f.id DESC')} AS pending_devices,
    ${namedSql('f.error', 'f.id DESC')} AS errors_devices,
    ${namedSql('f.degraded', 'f.id DESC')} AS unhealthy_devices,
    ${namedSql('f.drifted', 'f.id DESC')} AS drifted_devices
  FROM c`;

export const devicesRepository = {
  /** How many devices run the policy (a policy in use cannot be deleted). */
  async countUsingPolicy(db: Queryable, policyId: number): Promise<number> {
    const [row] = await db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM devices WHERE policy_id = $1',
      [policyId],
    );
    return row?.count ?? 0;
  },

  /** The devices that run the policy: a save tells their agents alone. */
  async idsUsingPolicy(db: Queryable, policyId: number): Promise<number[]> {
    const rows = await db.query<{ id: number }>(
      'SELECT id FROM devices WHERE policy_id = $1 ORDER BY id',
      [policyId],
    );
    return rows.map((row) => row.id);
  },

  async idsUsingProfile(db: Queryable, profileId: number): Promise<number[]> {
    const rows = await db.query<{ id: number }>('SELECT id FROM devices WHERE profile_id = $1', [
      profileId,
    ]);
    return rows.map((row) => row.id);
  },

  async idsUsingRuleset(db: Queryable, rulesetId: number): Promise<number[]> {
    return (
      await db.query<{ id: number }>('SELECT id FROM devices WHERE firewall_id = $1', [rulesetId])
    ).map((r) => r.id);
  },

  /** The organization's devices that run the policy, by id, with their profiles. */
  async runningPolicy(
    db: Queryable,
    orgId: number,
    policyId: number,
  ): Promise<{ id: number; name: string; profile_id: number | null }[]> {
    return db.query<{ id: number; name: string; profile_id: number | null }>(
      'SELECT id, name, profile_id FROM devices WHERE org_id = $1 AND policy_id = $2 ORDER BY id',
      [orgId, policyId],
    );
  },

  /** The profile of the first device (by id) that runs the ruleset and has one. */
  async firstProfileUsingRuleset(db: Queryable, rulesetId: number): Promise<number | undefined> {
    const [row] = await db.query<{ profile_id: number }>(
      `SELECT profile_id FROM devices WHERE firewall_id = $1 AND profile_id IS NOT NULL
        ORDER BY id LIMIT 1`,
      [rulesetId],
    );
    return row?.profile_id;
  },

  /** The demo fleet's devices (DEMO_FLEET), oldest first. */
  async findDemoSensorIds(db: Queryable, orgId: number): Promise<{ id: number }[]> {
    return db.query<{ id: number }>(
      `SELECT id FROM devices WHERE org_id = $1 AND name LIKE 'demo-sensor-%' ORDER BY id`,
      [orgId],
    );
  },

  list(db: Queryable, sql: ListSql) {
    return pagedList<DeviceRow>(
      db,
      {
        select: SELECT_DEVICE,
        countFrom: FROM_DEVICES,
        scope: 'd.org_id = $1',
      },
      sql,
    );
  },

  /** The organization's device figures; `named` devices of each, newest first (offline: last seen). */
  async summary(
    db: Queryable,
    orgId: number,
    options: { dropPercent: number; named: number },
  ): Promise<DeviceSummaryRow> {
    const [row] = await db.query<DeviceSummaryRow>(summarySql(options.dropPercent), [
      orgId,
      options.named,
    ]);
    if (!row) throw new Error('the device summary gave no row');
    return row;
  },

  async find(db: Queryable, orgId: number, id: number): Promise<DeviceRow | undefined> {
    const [row] = await db.query<DeviceRow>(`${SELECT_DEVICE} WHERE d.org_id = $1 AND d.id = $2`, [
      orgId,
      id,
    ]);
    return row;
  },

  /** The device's id and name; with `lock`, its row is locked until the transaction ends. */
  async idAndName(
    db: Queryable,
    orgId: number,
    id: number,
    options: { lock?: boolean } = {},
  ): Promise<{ id: number; name: string } | undefined> {
    const [row] = await db.query<{ id: number; name: string }>(
      `SELECT id, name FROM devices WHERE org_id = $1 AND id = $2${options.lock ? ' FOR UPDATE' : ''}`,
      [orgId, id],
    );
    return row;
  },

  async insert(
    db: Queryable,
    orgId: number,
    fields: Required<Omit<DeviceFields, 'passwordHash'>> & { passwordHash: string },
  ) {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO devices (org_id, name, description, address, city, licensed, password_hash, profile_id, policy_id, firewall_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [
        orgId,
        fields.name,
        fields.description,
        fields.address,
        fields.city,
        fields.licensed,
        fields.passwordHash,
        fields.profileId,
        fields.policyId,
        fields.firewallId,
      ],
    );
    if (!row) throw new Error('INSERT … RETURNING gave no row');
    return row.id;
  },

  async update(db: Queryable, id: number, fields: DeviceFields) {
    const sets: string[] = [];
    const params: (string | number | boolean | null)[] = [];
    const set = (column: string, value: string | number | boolean | null | undefined) => {
      if (value === undefined) return;
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    set('name', fields.name);
    set('description', fields.description);
    set('address', fields.address);
    set('city', fields.city);
    set('licensed', fields.licensed);
    set('password_hash', fields.passwordHash);
    set('profile_id', fields.profileId);
    set('policy_id', fields.policyId);
    set('firewall_id', fields.firewallId);
    if (fields.passwordHash !== undefined) sets.push('token_version = token_version + 1');
    if (sets.length === 0) return;
    params.push(id);
    await db.query(
      `UPDATE devices SET ${sets.join(', ')}, updated_at = now() WHERE id = $${params.length}`,
      params,
    );
  },

  async delete(db: Queryable, id: number) {
    await db.query('DELETE FROM devices WHERE id = $1', [id]);
  },

  /** Agent versions of the organization's devices that report one (to find the outdated). */
  async agentVersions(db: Queryable, orgId: number, ids?: readonly number[]) {
    return db.query<{ id: number; agent_version: string | null }>(
      `SELECT id, agent_version FROM devices
        WHERE org_id = $1 AND ($2::int[] IS NULL OR id = ANY($2::int[])) ORDER BY id`,
      [orgId, ids === undefined ? null : [...ids]],
    );
  },

  /** Asks these devices to run `version`, each under a new upgrade id; how many were asked. */
  async requestUpgrade(db: Queryable, ids: readonly number[], version: string) {
    if (ids.length === 0) return 0;
    const rows = await db.query(
      `UPDATE devices SET upgrade_version = $2, upgrade_id = nextval('agent_upgrade_ids'),
              upgrade_requested_at = now()
        WHERE id = ANY($1::int[]) RETURNING id`,
      [[...ids], version],
    );
    return rows.length;
  },

  async requestFlush(db: Queryable, id: number) {
    await db.query('UPDATE devices SET flush_requested = true WHERE id = $1', [id]);
  },

  async network(db: Queryable, id: number): Promise<DeviceNetwork> {
    const [row] = await db.query<{ network: DeviceNetwork }>(
      'SELECT network FROM devices WHERE id = $1',
      [id],
    );
    return row?.network ?? { l3_mode: false, routes: [], source_nat: [], port_forwards: [] };
  },

  /** The server's address and port as the device's agent last reported reaching it. */
  async serverEndpoint(db: Queryable, id: number): Promise<ServerEndpoint | null> {
    const [row] = await db.query<{ server_endpoint: ServerEndpoint | null }>(
      'SELECT server_endpoint FROM devices WHERE id = $1',
      [id],
    );
    return row?.server_endpoint ?? null;
  },

  async setNetwork(db: Queryable, id: number, network: DeviceNetwork) {
    await db.query('UPDATE devices SET network = $2::jsonb, updated_at = now() WHERE id = $1', [
      id,
      JSON.stringify(network),
    ]);
  },

  /** The newest `limit` samples since `since`, newest first. */
  async metrics(db: Queryable, deviceId: number, since: Date, limit: number) {
    return db.query<MetricRow>(
      `SELECT time, cpu, memory_used, memory_total, disk_used, disk_total, net_in, net_out,
              drop_percent, alerts_per_min, rules_loaded, rules_failed
         FROM device_metrics WHERE device_id = $1 AND time >= $2 ORDER BY time DESC LIMIT $3`,
      [deviceId, since, limit],
    );
  },

  /** Samples since `since`, counted up to `cap` (the primary key's range, no further). */
  async metricCount(db: Queryable, deviceId: number, since: Date, cap: number) {
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM (
         SELECT 1 FROM device_metrics WHERE device_id = $1 AND time >= $2 LIMIT $3
       ) AS capped`,
      [deviceId, since, cap],
    );
    return row?.n ?? 0;
  },

  /**
   * Samples since `since` averaged per epoch-aligned bucket of `seconds`: the newest `limit`
   * buckets, newest first. Gauges and rates are averaged (net_in/net_out are bytes per
   * second, so the average is the bucket's mean rate); totals take the bucket's largest. Of
   * the sensor's rules a bucket shows the worst: fewest loaded, most failed.
   */
  async metricBuckets(
    db: Queryable,
    query: { deviceId: number; since: Date; seconds: number; limit: number },
  ) {
    return db.query<MetricRow>(
      `SELECT date_bin($3::integer * INTERVAL '1 second', time, TIMESTAMPTZ '1970-01-01 00:00:00+00') AS time,
              avg(cpu)::real AS cpu,
              round(avg(memory_used))::bigint AS memory_used, max(memory_total) AS memory_total,
              round(avg(disk_used))::bigint AS disk_used, max(disk_total) AS disk_total,
              avg(net_in) AS net_in, avg(net_out) AS net_out,
              avg(drop_percent)::real AS drop_percent, avg(alerts_per_min)::real AS alerts_per_min,
              min(rules_loaded) AS rules_loaded, max(rules_failed) AS rules_failed
         FROM device_metrics WHERE device_id = $1 AND time >= $2
        GROUP BY 1 ORDER BY 1 DESC LIMIT $4`,
      [query.deviceId, query.since, query.seconds, query.limit],
    );
  },

  async logs(db: Queryable, deviceId: number, limit: number) {
    return db.query<{ id: number; time: Date; level: string; msg: string }>(
      'SELECT id, time, level, msg FROM device_logs WHERE device_id = $1 ORDER BY time DESC, id DESC LIMIT $2',
      [deviceId, limit],
    );
  },
};

export type MetricRow = { time: Date } & DeviceMetrics & HealthSeries;

export interface HealthSeries {
  drop_percent: number | null;
  alerts_per_min: number | null;
  rules_loaded: number | null;
  rules_failed: number | null;
}
