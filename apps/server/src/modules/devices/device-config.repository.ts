import type { ChainPolicies, DeviceNetwork, FirewallRule } from '@palisade/contract';
import type { Queryable } from '../../db/client.js';
import type { ReportedEndpoint } from '../firewall/lockout.js';

// These reads join the profiles' and rulesets' tables to the devices on purpose: a device's
// configuration renders from all three, for thousands of devices at a time, in one statement
// (see "Table ownership" in docs/ARCHITECTURE.md).

/** What a device's configuration renders from. */
export interface ConfigSource {
  firewall_id: number | null;
  variables: Record<string, string> | null;
  network: DeviceNetwork;
  rules: FirewallRule[] | null;
  policies: ChainPolicies | null;
  nftables_managed: boolean;
  routes_managed: boolean;
}

/**
 * A device as refreshDeviceConfigs reads it: id, profile, ruleset, network, managed marks, then,
 * only when a lock-out check is to be made, its name, stored digest and reported endpoint.
 */
export type DeviceShape = [
  number,
  number | null,
  number | null,
  DeviceNetwork,
  boolean,
  boolean,
  string?,
  (string | null)?,
  (ReportedEndpoint | null)?,
];

type VariablesById = Record<string, Record<string, string> | null>;
type RulesetsById = Record<string, [FirewallRule[], ChainPolicies]>;

/** A device the saved lock-out check reads: id, name, ruleset, profile, reported endpoint. */
export type LockoutDevice = [number, string, number, number | null, ReportedEndpoint | null];

export interface RoutesCheckRow {
  id: number;
  name: string;
  network: DeviceNetwork;
  routes_managed: boolean;
  server_endpoint: ReportedEndpoint | null;
}

/** A device and its policy: id, name, config digest, policy id, name, version, digest. */
export type DeliveryRow = [
  number,
  string,
  string,
  number | null,
  string | null,
  number | null,
  string | null,
];

export const deviceConfigRepository = {
  async findConfigSource(db: Queryable, deviceId: number): Promise<ConfigSource | undefined> {
    const [row] = await db.query<ConfigSource>(
      `SELECT d.firewall_id, f.variables, d.network, s.rules, s.policies, d.nftables_managed,
              d.routes_managed
       FROM devices d LEFT JOIN device_profiles f ON f.id = d.profile_id
       LEFT JOIN firewall_rulesets s ON s.id = d.firewall_id
      WHERE d.id = $1`,
      [deviceId],
    );
    return row;
  },

  /**
   * The organization's devices (or the given ones) with the profiles' variables and the
   * rulesets they use; with `forLockoutCheck`, each device's name, digest and endpoint too.
   */
  async readConfigShapes(
    db: Queryable,
    orgId: number,
    deviceIds: number[] | undefined,
    forLockoutCheck: boolean,
  ): Promise<
    | {
        devices: DeviceShape[] | null;
        profiles: VariablesById | null;
        rulesets: RulesetsById | null;
      }
    | undefined
  > {
    // What only the lock-out check needs is read when there is a check to make.
    const checked = forLockoutCheck ? ', name, config_sha256, server_endpoint' : '';
    const [read] = await db.query<{
      devices: DeviceShape[] | null;
      profiles: VariablesById | null;
      rulesets: RulesetsById | null;
    }>(
      // One JSON value rather than a row per device: the embedded database decodes rows one value
      // at a time in JavaScript.
      `WITH d AS (SELECT id, profile_id, firewall_id, network, nftables_managed, routes_managed${checked}
                  FROM devices WHERE org_id = $1 AND ($2::int[] IS NULL OR id = ANY($2::int[])))
     SELECT (SELECT json_agg(json_build_array(id, profile_id, firewall_id, network, nftables_managed,
                                              routes_managed${checked})
                         ORDER BY id) FROM d) AS devices,
            (SELECT json_object_agg(f.id, f.variables) FROM device_profiles f
              WHERE f.id IN (SELECT profile_id FROM d)) AS profiles,
            (SELECT json_object_agg(s.id, json_build_array(s.rules, s.policies)) FROM firewall_rulesets s
              WHERE s.id IN (SELECT firewall_id FROM d)) AS rulesets`,
      [orgId, deviceIds ?? null],
    );
    return read;
  },

  /** Stores rendered digests; a device's config version moves only when its digest does. */
  async storeConfigDigests(
    db: Queryable,
    {
      ids,
      shas,
      nftables,
      routes,
    }: { ids: number[]; shas: string[]; nftables: boolean[]; routes: boolean[] },
  ): Promise<void> {
    await db.query(
      `UPDATE devices d
          SET config_version = CASE WHEN d.config_sha256 = u.sha256 THEN d.config_version ELSE d.config_version + 1 END,
              config_sha256 = u.sha256,
              nftables_managed = d.nftables_managed OR u.nftables, routes_managed = d.routes_managed OR u.routes
         FROM unnest($1::int[], $2::text[], $3::boolean[], $4::boolean[]) AS u(id, sha256, nftables, routes)
        WHERE d.id = u.id
          AND (d.config_sha256 IS DISTINCT FROM u.sha256 OR (u.nftables AND NOT d.nftables_managed)
               OR (u.routes AND NOT d.routes_managed))`,
      [ids, shas, nftables, routes],
    );
  },

  /** The given devices that have a ruleset, with their rulesets and profiles' variables. */
  async readLockoutSources(
    db: Queryable,
    orgId: number,
    deviceIds: readonly number[],
  ): Promise<
    | {
        devices: LockoutDevice[] | null;
        rulesets: RulesetsById | null;
        profiles: VariablesById | null;
      }
    | undefined
  > {
    const [read] = await db.query<{
      devices: LockoutDevice[] | null;
      rulesets: RulesetsById | null;
      profiles: VariablesById | null;
    }>(
      // One JSON value, as refreshDeviceConfigs reads: the embedded database decodes by value.
      `WITH d AS (SELECT id, name, firewall_id, profile_id, server_endpoint FROM devices
                 WHERE org_id = $1 AND id = ANY($2::int[]) AND firewall_id IS NOT NULL)
     SELECT (SELECT json_agg(json_build_array(id, name, firewall_id, profile_id, server_endpoint)
                             ORDER BY id) FROM d) AS devices,
            (SELECT json_object_agg(s.id, json_build_array(s.rules, s.policies)) FROM firewall_rulesets s
              WHERE s.id IN (SELECT firewall_id FROM d)) AS rulesets,
            (SELECT json_object_agg(f.id, f.variables) FROM device_profiles f
              WHERE f.id IN (SELECT profile_id FROM d)) AS profiles`,
      [orgId, [...deviceIds]],
    );
    return read;
  },

  async readRoutesCheck(
    db: Queryable,
    orgId: number,
    deviceIds: number[],
  ): Promise<RoutesCheckRow[]> {
    return db.query<RoutesCheckRow>(
      `SELECT id, name, network, routes_managed, server_endpoint FROM devices
      WHERE org_id = $1 AND id = ANY($2::int[]) ORDER BY id`,
      [orgId, deviceIds],
    );
  },

  /** Every device of the organization with its policy, in one JSON value. */
  async readDeliveries(db: Queryable, orgId: number): Promise<DeliveryRow[] | null> {
    const [row] = await db.query<{ devices: DeliveryRow[] | null }>(
      `SELECT json_agg(json_build_array(d.id, d.name, d.config_sha256, p.id, p.name, p.version,
                                      p.rendered_sha256) ORDER BY d.id) AS devices
       FROM devices d LEFT JOIN policies p ON p.id = d.policy_id
      WHERE d.org_id = $1`,
      [orgId],
    );
    return row?.devices ?? null;
  },
};
