import type { ChainPolicies, DeviceNetwork, FirewallRule } from '@palisade/contract';
import type { Queryable } from '../../db/client.js';

/** A device's firewall as it renders now (firewall_id null: none), and what it was deployed. */
export interface HitsSource {
  org_id: number;
  firewall_id: number | null;
  config_version: number;
  network: DeviceNetwork;
  variables: Record<string, string> | null;
  rules: FirewallRule[] | null;
  policies: ChainPolicies | null;
  /** The configuration a staged organization last deployed to the device; null: it follows saves. */
  deployed_version: number | null;
  deployed_sha256: string | null;
}

/** Each chain's nftables rules, in order, by the key of the ruleset rule they come from. */
export type ChainKeys = Record<'input' | 'forward' | 'output', (string | null)[]>;

/** The rule keys a deployed configuration was rendered with (see firewall_hit_keys). */
export interface DeployedKeys {
  ruleset_id: number;
  keys: ChainKeys;
}

export interface RuleCount {
  rule_key: string;
  packets: number;
  bytes: number;
}

/** The server's day (UTC) that hits are counted in. */
const TODAY = "(now() AT TIME ZONE 'UTC')::date";
/** Days of hits kept: the longest window shown, and one more. */
const KEEP_DAYS = 31;

export const firewallHitsRepository = {
  async source(db: Queryable, deviceId: number): Promise<HitsSource | undefined> {
    const [row] = await db.query<HitsSource>(
      `SELECT d.org_id, d.firewall_id, d.config_version, d.network, f.variables, s.rules, s.policies,
              dp.config_version AS deployed_version, dp.config_sha256 AS deployed_sha256
         FROM devices d LEFT JOIN firewall_rulesets s ON s.id = d.firewall_id
         LEFT JOIN device_profiles f ON f.id = d.profile_id
         LEFT JOIN device_deployed dp ON dp.device_id = d.id
        WHERE d.id = $1`,
      [deviceId],
    );
    return row;
  },

  /** Keeps the rule keys of deployed configurations; one already kept stays as it is. */
  async keepDeployedKeys(
    db: Queryable,
    rows: readonly { configSha256: string; rulesetId: number; keys: ChainKeys }[],
  ): Promise<void> {
    if (rows.length === 0) return;
    await db.query(
      `INSERT INTO firewall_hit_keys (config_sha256, ruleset_id, keys)
       SELECT * FROM unnest($1::text[], $2::int[], $3::jsonb[])
       ON CONFLICT (config_sha256) DO NOTHING`,
      [
        rows.map((row) => row.configSha256),
        rows.map((row) => row.rulesetId),
        rows.map((row) => JSON.stringify(row.keys)),
      ],
    );
  },

  async deployedKeys(db: Queryable, configSha256: string): Promise<DeployedKeys | undefined> {
    const [row] = await db.query<DeployedKeys>(
      'SELECT ruleset_id, keys FROM firewall_hit_keys WHERE config_sha256 = $1',
      [configSha256],
    );
    return row;
  },

  /**
   * A device's cumulative counters of its ruleset's rules: what they grew by since its last
   * report goes to today's hits (all of it when the table was loaded again since, or a counter
   * went back: counted from zero again), and they become the last counters. Counters of rules
   * or rulesets the device no longer runs go.
   */
  async record(
    db: Queryable,
    input: { deviceId: number; rulesetId: number; loadedAt: string; counts: RuleCount[] },
  ): Promise<void> {
    const { deviceId, rulesetId, loadedAt, counts } = input;
    const rows = JSON.stringify(counts);
    const grew = (field: 'packets' | 'bytes') => `CASE
        WHEN p.rule_key IS NULL OR p.loaded_at <> $4::timestamptz
          OR i.packets < p.packets OR i.bytes < p.bytes THEN i.${field}
        ELSE i.${field} - p.${field} END`;
    await db.query(
      `WITH input AS (
         SELECT * FROM json_to_recordset($1::json) AS c(rule_key text, packets bigint, bytes bigint)
       ), delta AS (
         SELECT i.rule_key, ${grew('packets')} AS packets, ${grew('bytes')} AS bytes
           FROM input i LEFT JOIN firewall_rule_counters p
             ON p.device_id = $2 AND p.ruleset_id = $3 AND p.rule_key = i.rule_key
       ), hits AS (
         INSERT INTO firewall_rule_hits (ruleset_id, rule_key, day, device_id, packets, bytes)
         SELECT $3, rule_key, ${TODAY}, $2, packets, bytes FROM delta
          WHERE packets > 0 OR bytes > 0
         ON CONFLICT (ruleset_id, rule_key, day, device_id) DO UPDATE
           SET packets = firewall_rule_hits.packets + EXCLUDED.packets,
               bytes = firewall_rule_hits.bytes + EXCLUDED.bytes
       )
       INSERT INTO firewall_rule_counters (device_id, ruleset_id, rule_key, loaded_at, packets, bytes, seen_at)
       SELECT $2, $3, rule_key, $4::timestamptz, packets, bytes, now() FROM input
       ON CONFLICT (device_id, ruleset_id, rule_key) DO UPDATE
         SET loaded_at = EXCLUDED.loaded_at, packets = EXCLUDED.packets, bytes = EXCLUDED.bytes,
             seen_at = EXCLUDED.seen_at`,
      [rows, deviceId, rulesetId, loadedAt],
    );
    await db.query(
      `DELETE FROM firewall_rule_counters
        WHERE device_id = $1 AND (ruleset_id <> $2 OR NOT rule_key = ANY($3::text[]))`,
      [deviceId, rulesetId, counts.map((c) => c.rule_key)],
    );
    await db.query(
      `DELETE FROM firewall_rule_hits WHERE device_id = $1 AND day < ${TODAY} - ${KEEP_DAYS}`,
      [deviceId],
    );
  },

  /** Per rule key: packets and bytes of the last `days` days (today included), and of 30. */
  async sums(
    db: Queryable,
    rulesetId: number,
    days: number,
  ): Promise<{ rule_key: string; packets: number; bytes: number; packets_30: number }[]> {
    return db.query(
      `SELECT rule_key,
              coalesce(sum(packets) FILTER (WHERE day > ${TODAY} - $2::int), 0)::float8 AS packets,
              coalesce(sum(bytes) FILTER (WHERE day > ${TODAY} - $2::int), 0)::float8 AS bytes,
              sum(packets)::float8 AS packets_30
         FROM firewall_rule_hits
        WHERE ruleset_id = $1 AND day > ${TODAY} - 30
        GROUP BY rule_key`,
      [rulesetId, days],
    );
  },

  /**
   * The rule keys any of the devices (those running the ruleset) reported in the last 30 days,
   * each with whether such a device has reported it for 30 days or more (long enough to call
   * it idle).
   */
  async reported(
    db: Queryable,
    rulesetId: number,
    deviceIds: number[],
  ): Promise<{ rule_key: string; watched_30: boolean }[]> {
    return db.query<{ rule_key: string; watched_30: boolean }>(
      `SELECT rule_key, bool_or(first_seen <= now() - interval '30 days') AS watched_30
         FROM firewall_rule_counters
        WHERE ruleset_id = $1 AND device_id = ANY($2::int[]) AND seen_at > now() - interval '30 days'
        GROUP BY rule_key`,
      [rulesetId, deviceIds],
    );
  },

  /** Hits of days no window shows any more, of every device (those that stopped reporting too). */
  async prune(db: Queryable): Promise<number> {
    const rows = await db.query(
      `DELETE FROM firewall_rule_hits WHERE day < ${TODAY} - ${KEEP_DAYS} RETURNING 1`,
    );
    return rows.length;
  },
};
