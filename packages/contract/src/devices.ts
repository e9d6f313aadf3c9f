import { z } from 'zod';
import { AlertTime } from './alerts.js';
import { Id, Int4, SafeString } from './common.js';

/** A variable-set entry: `HOME_NET` → `[10.0.0.0/8,192.168.0.0/16]`. */
export const ProfileVariables = z.record(
  z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'Variable names are letters, digits and _'),
  SafeString.trim()
    .min(1, 'Required')
    .max(64 * 1024),
);

export const DeviceProfile = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  variables: z.record(z.string(), z.string()),
  device_count: z.number().int(),
  updated_at: z.string(),
});
export type DeviceProfile = z.infer<typeof DeviceProfile>;

const ProfileName = SafeString.trim().min(1, 'Required').max(200);
const Description = SafeString.trim().max(2000);

export const DeviceProfileWrite = z.object({
  name: ProfileName,
  description: Description.default(''),
  variables: ProfileVariables.default({}),
});
/** What is given replaces; what is left out stays (no defaults here). */
export const DeviceProfileUpdate = z.object({
  name: ProfileName.optional(),
  description: Description.optional(),
  variables: ProfileVariables.optional(),
  /** Administrators only: save even when a device using the profile would lose the server. */
  override_lockout: z.boolean().default(false),
});

/** Device status labels of the spec. */
export const DeviceStatus = z.enum(['Update Pending', 'Licensed', 'Online', 'Unknown']);

export const DeviceMetrics = z.object({
  /** Percent of all cores, 0–100. */
  cpu: z.number().min(0).max(100),
  memory_used: z.number().int().min(0),
  memory_total: z.number().int().min(0),
  disk_used: z.number().int().min(0),
  disk_total: z.number().int().min(0),
  /** Bytes per second over the last interval. */
  net_in: z.number().min(0),
  net_out: z.number().min(0),
});
export type DeviceMetrics = z.infer<typeof DeviceMetrics>;

/**
 * What Suricata's latest `stats` event in eve.json says of the sensor (since agent 0.3.0).
 * Counters are Suricata's, cumulative since it started; the rates are the agent's, from the
 * difference between its last two stats events (a restart of Suricata starts them over).
 */
export const SensorHealth = z.object({
  /** The stats event's timestamp. */
  time: SafeString.max(100),
  /** capture.kernel_packets and capture.kernel_drops. */
  kernel_packets: z.number().int().min(0),
  kernel_drops: z.number().int().min(0),
  /** Drops per packet captured since the previous stats event, percent; null: no packets. */
  drop_percent: z.number().min(0).max(100).nullable(),
  /** detect.alert per minute since the previous stats event; null: not known yet. */
  alerts_per_min: z.number().min(0).nullable(),
  decoder_bytes: z.number().int().min(0),
  flow_memuse: z.number().int().min(0),
  /** Summed over detect.engines; null when Suricata reports no engine. */
  rules_loaded: z.number().int().min(0).nullable(),
  rules_failed: z.number().int().min(0).nullable(),
  /** The newest engine's last_reload. */
  last_reload: SafeString.max(100).nullable(),
  /**
   * While rules_failed > 0: the first few reasons Suricata logged (`error parsing signature`
   * lines of suricata.log), when the agent can read it (since agent 0.3.0).
   */
  rule_errors: z.array(SafeString.max(1000)).max(10).optional(),
});
export type SensorHealth = z.infer<typeof SensorHealth>;

/**
 * Palisade's nftables table as the agent finds it loaded, against what it applied (since agent
 * 0.3.0): SHA-256 of `nft -j list table inet palisade` without handles and counter values,
 * null while the table is absent. `drift`: they still differ after the agent re-applied its
 * script; `reapplied_at`: the last time it found the table changed outside Palisade and
 * re-applied it.
 */
export const FirewallDrift = z.object({
  loaded_sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  applied_sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  drift: z.boolean(),
  reapplied_at: z.iso.datetime().nullable(),
});
export type FirewallDrift = z.infer<typeof FirewallDrift>;

/** One nftables rule's counter, [packets, bytes]; null for a rule without a counter. */
const RuleCounter = z
  .tuple([
    z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  ])
  .nullable();
/** The most nftables rules of one chain reported (a ruleset holds at most 100,000 rules). */
export const MAX_CHAIN_COUNTERS = 400_000;
const ChainCounters = z.array(RuleCounter).max(MAX_CHAIN_COUNTERS);

/**
 * The counters of Palisade's filter chains as the agent reads them from `nft -j` (since agent
 * 0.3.0): every rule of each chain in order, so that the server finds each rule's ruleset rule
 * by chain and position in the script of `config_version`. Cumulative since the table was
 * loaded at `loaded_at`; a new `loaded_at` (or a counter going back) counts from zero again.
 */
export const FirewallHitsReport = z.object({
  config_version: Int4,
  loaded_at: z.iso.datetime(),
  chains: z.object({
    input: ChainCounters.default([]),
    forward: ChainCounters.default([]),
    output: ChainCounters.default([]),
  }),
});
export type FirewallHitsReport = z.infer<typeof FirewallHitsReport>;

export const HealthReason = z.enum(['rules_failed', 'drops']);
export type HealthReason = z.infer<typeof HealthReason>;
/**
 * ok, degraded (an engine failed to load rules, or drops above HEALTH_DROP_PERCENT) or
 * unknown (the agent reports no Suricata stats).
 */
export const DeviceHealth = z.object({
  status: z.enum(['ok', 'degraded', 'unknown']),
  reasons: z.array(HealthReason),
});
export type DeviceHealth = z.infer<typeof DeviceHealth>;

export const Device = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  address: z.string(),
  city: z.string(),
  licensed: z.boolean(),
  profile_id: z.number().int().nullable(),
  policy_id: z.number().int().nullable(),
  firewall_id: z.number().int().nullable(),
  online: z.boolean(),
  last_seen: z.string().nullable(),
  update_pending: z.boolean(),
  config_version_local: z.number().int().nullable(),
  config_version_remote: z.number().int(),
  policy_version_local: z.number().int().nullable(),
  policy_version_remote: z.number().int(),
  last_error: z.string().nullable(),
  state: z.string().nullable(),
  agent_version: z.string().nullable(),
  metrics: DeviceMetrics.nullable(),
  /** The sensor's last Suricata stats, as its agent reported them. */
  sensor: SensorHealth.nullable(),
  health: DeviceHealth,
  /**
   * The rules the policy version the device runs renders (what its engine should load); null
   * without a policy or before the device applied one.
   */
  policy_rules: z.number().int().nullable(),
  /** Palisade's firewall table as loaded against as applied; null: never reported. */
  firewall: FirewallDrift.nullable(),
  /** Alert events the server refused to store (not an alert, no valid timestamp, …). */
  alerts_rejected: z.number().int(),
  /** Its agent reports a version older than the one this server serves. */
  agent_outdated: z.boolean(),
  /** An upgrade the device has been asked for and has not yet reported done or failed. */
  upgrade: z.object({ version: z.string(), requested_at: z.string() }).nullable(),
  updated_at: z.string(),
});
export type Device = z.infer<typeof Device>;

const DevicePassword = SafeString.min(12, 'Min 12 characters').max(256);

const DeviceFields = {
  name: SafeString.trim().min(1, 'Required').max(200),
  description: Description,
  address: SafeString.trim().max(255),
  city: SafeString.trim().max(200),
  licensed: z.boolean(),
  /** Write-only: the agent's secret; stored as an argon2id hash. */
  password: DevicePassword,
  profile_id: Id.nullable(),
  policy_id: Id.nullable(),
  firewall_id: Id.nullable(),
};

export const DeviceWrite = z.object({
  ...DeviceFields,
  description: DeviceFields.description.default(''),
  address: DeviceFields.address.default(''),
  city: DeviceFields.city.default(''),
  licensed: DeviceFields.licensed.default(false),
  profile_id: DeviceFields.profile_id.default(null),
  policy_id: DeviceFields.policy_id.default(null),
  firewall_id: DeviceFields.firewall_id.default(null),
});
/** What is given replaces; what is left out stays (a new password revokes the agent's tokens). */
export const DeviceUpdate = z.object(DeviceFields).partial().extend({
  /** Administrators only: assign a ruleset or profile even when it would cut the device off. */
  override_lockout: z.boolean().optional(),
});

/** POST /devices/upgrade: these devices, or every outdated device of the organization. */
export const DeviceUpgradeRequest = z.union([
  z.object({ ids: z.array(Id).min(1).max(10_000) }),
  z.object({ all: z.literal(true) }),
]);
export type DeviceUpgradeRequest = z.infer<typeof DeviceUpgradeRequest>;
export const DeviceUpgradeResult = z.object({
  /** Devices asked to upgrade (those already on `version` are not). */
  requested: z.number().int(),
  /** The agent version they are asked to run: the one this server serves. */
  version: z.string(),
});
export type DeviceUpgradeResult = z.infer<typeof DeviceUpgradeResult>;

// ---- Agent protocol (version 1). Both sides ignore fields they do not know. ----

export const AGENT_PROTOCOL_VERSION = 1;

export const AgentLogin = z.object({
  device_id: Id,
  password: SafeString.min(1).max(256),
  agent_version: SafeString.max(50).optional(),
  protocol: z.number().int().optional(),
});

export const AgentToken = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  /** Seconds until the token expires; sign in again before. */
  expires_in: z.number().int(),
});

export const AgentVersions = z.object({
  config_version: Int4.nullable(),
  policy_version: Int4.nullable(),
});
export type AgentVersions = z.infer<typeof AgentVersions>;

/** How an upgrade the server asked for ended, told by the agent (since agent 0.2.0). */
export const AgentUpgradeReport = z.object({
  /** The id of the server's upgrade order. */
  id: z.number().int().positive(),
  status: z.enum(['done', 'failed']),
  /** Why it failed: becomes the device's last error. */
  error: z.string().max(8000).optional(),
});
export type AgentUpgradeReport = z.infer<typeof AgentUpgradeReport>;

/** The server asks the agent to install this version (its release manifest's). */
export const AgentUpgradeOrder = z.object({
  id: z.number().int().positive(),
  version: z.string(),
});
export type AgentUpgradeOrder = z.infer<typeof AgentUpgradeOrder>;

export const AgentHeartbeat = z.object({
  state: SafeString.max(50),
  metrics: DeviceMetrics.optional(),
  local: AgentVersions,
  agent_version: SafeString.max(50),
  /** Any text: the server stores NUL and lone surrogates as their escapes. */
  last_error: z.string().max(8000).nullable().optional(),
  upgrade: AgentUpgradeReport.optional(),
  /**
   * The server as the agent reaches it: its connection's remote address and port. Older agents
   * do not send it; the server then checks firewall changes against PUBLIC_URL's host and port.
   */
  server_endpoint: z
    .object({ address: SafeString.max(100), port: z.number().int().min(1).max(65535) })
    .optional(),
  /**
   * A firewall change the agent took back by itself (no contact with the server in time): sent
   * until a beat carrying it is answered; the server records it in the audit log. Older
   * servers ignore it (the rollback is the beat's `last_error` all the same).
   */
  firewall_rollback: z.object({ config_version: Int4, reason: z.string().max(8000) }).optional(),
  /** Suricata's latest stats (since agent 0.3.0; older servers ignore it). */
  health: SensorHealth.optional(),
  /** Palisade's firewall table, loaded against applied (since agent 0.3.0). */
  firewall: FirewallDrift.optional(),
  /** The firewall rules' counters (since agent 0.3.0; only while the table is as applied). */
  firewall_hits: FirewallHitsReport.optional(),
});
export type AgentHeartbeat = z.infer<typeof AgentHeartbeat>;

export const AgentHeartbeatReply = z.object({
  remote: z.object({ config_version: z.number().int(), policy_version: z.number().int() }),
  /** Pull the bundle now: versions differ, or the console asked for a flush. */
  pull: z.boolean(),
  /** Seconds until the next heartbeat. */
  interval: z.number().int(),
  /** Present while an upgrade is asked of the device; older agents ignore it. */
  upgrade: AgentUpgradeOrder.optional(),
});
export type AgentHeartbeatReply = z.infer<typeof AgentHeartbeatReply>;

export const AgentRoute = z.object({
  destination: z.string(),
  gateway: z.string().nullable(),
  metric: z.number().int().nullable(),
  interface: z.string().nullable(),
});

/** Everything a sensor runs, rendered for it. Cacheable: the ETag is the two versions. */
export const AgentBundle = z.object({
  config_version: z.number().int(),
  policy_version: z.number().int(),
  /** The policy's rules file (empty without a policy). */
  rules: z.string(),
  /** threshold.config. */
  thresholds: z.string(),
  /** The profile's variables: address groups and port groups for suricata.yaml. */
  variables: z.record(z.string(), z.string()),
  /** nftables script (null until a firewall ruleset is assigned). */
  nftables: z.string().nullable(),
  /** iproute2 commands for the device's routes (null: no route managed). */
  routes: z.string().nullable(),
});
export type AgentBundle = z.infer<typeof AgentBundle>;

export const AgentApplied = z.object({
  config_version: Int4,
  policy_version: Int4,
  ok: z.boolean(),
  /** Why applying failed (becomes the device's last error); stored escaped like log lines. */
  error: z.string().max(8000).nullable().optional(),
});

/**
 * A batch of eve.json alert events; seq increases by one per batch per device. Events are
 * taken as they come (not copied key by key by the validator: this is the fleet's hot path);
 * the server checks each one, stores the valid ones and lists the others in its answer.
 */
export const AgentAlertBatch = z.object({
  seq: z.number().int().positive(),
  events: z.array(z.unknown().describe('an eve.json event object')).max(10_000),
});

export const AgentLogBatch = z.object({
  seq: z.number().int().positive(),
  lines: z
    .array(
      z.object({
        time: SafeString.max(100),
        level: z.enum(['debug', 'info', 'warn', 'error']),
        /** Any text: the server stores NUL and lone surrogates as their escapes. */
        msg: z.string().max(8000),
      }),
    )
    .max(10_000),
});

/** The highest batch the server has stored: everything up to it may leave the spool. */
export const AgentAck = z.object({ ack: z.number().int() });
export type AgentAck = z.infer<typeof AgentAck>;

/** An event of a batch the server did not store, and why. */
export const AgentRejectedEvent = z.object({
  /** Its position in the batch's `events`. */
  index: z.number().int().min(0),
  reason: z.string(),
});
export type AgentRejectedEvent = z.infer<typeof AgentRejectedEvent>;

/**
 * The answer to an alert batch: the ack, and the events of this batch that were not stored
 * (every other one was). A repeated batch answers an empty list: it was judged the first time.
 */
export const AgentAlertAck = AgentAck.extend({
  rejected: z.array(AgentRejectedEvent).default([]),
});
export type AgentAlertAck = z.infer<typeof AgentAlertAck>;

// ---- What the console reads of a device's reports. ----

export const DeviceMetricSample = DeviceMetrics.extend({
  time: z.string(),
  /** Sensor health series; null where the agent reported no Suricata stats. */
  drop_percent: z.number().nullable(),
  alerts_per_min: z.number().nullable(),
  rules_loaded: z.number().int().nullable(),
  rules_failed: z.number().int().nullable(),
});
/** Most points GET /devicemonitor/{id} answers for any window. */
export const MONITOR_MAX_POINTS = 500;
export const DeviceMonitorQuery = z.object({
  /** Window start (ISO time); default the last hour. The window ends now. */
  since: z.iso.datetime({ offset: true }).optional(),
  /**
   * Most points to answer, at most MONITOR_MAX_POINTS (larger values, which older consoles
   * send, are capped). A window with more samples than that is averaged into time buckets.
   */
  limit: z.coerce.number().int().min(1).max(100_000).default(MONITOR_MAX_POINTS),
});
export const DeviceMonitor = z.object({
  device_id: z.number().int(),
  /**
   * Null: `data` holds the raw samples. Otherwise each point averages the samples of one
   * bucket this many seconds wide (cpu, used memory and disk, network rates; totals are the
   * bucket's largest), its time being the bucket's start; buckets are aligned to the epoch.
   */
  bucket_seconds: z.number().int().positive().nullable(),
  /** Oldest first. */
  data: z.array(DeviceMetricSample),
});

export const DeviceLogLine = z.object({
  id: z.number().int(),
  time: z.string(),
  level: z.string(),
  msg: z.string(),
});
export const DeviceLog = z.object({ device_id: z.number().int(), data: z.array(DeviceLogLine) });

export const DeviceAlert = z.object({
  id: z.number().int(),
  device_id: z.number().int(),
  time: AlertTime,
  gid: z.number().int().nullable(),
  sid: z.number().int().nullable(),
  rev: z.number().int().nullable(),
  msg: z.string().nullable(),
  category: z.string().nullable(),
  severity: z.number().int().nullable(),
  action: z.string().nullable(),
  proto: z.string().nullable(),
  app_proto: z.string().nullable(),
  src_ip: z.string().nullable(),
  src_port: z.number().int().nullable(),
  dest_ip: z.string().nullable(),
  dest_port: z.number().int().nullable(),
  flow_id: z.number().nullable(),
});
export type DeviceAlert = z.infer<typeof DeviceAlert>;
/** Spec §9: the last 100 device alerts. */
export const DEVICE_ALERTS_SHOWN = 100;
export const DeviceAlerts = z.object({ device_id: z.number().int(), data: z.array(DeviceAlert) });
