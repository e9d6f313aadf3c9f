import { createHash } from 'node:crypto';
import type { ChainPolicies, DeviceNetwork, FirewallRule } from '@palisade/contract';
import type { Queryable } from '../../db/client.js';
import { notifyDevices } from '../../plugins/device-events.js';
import { renderDeviceFirewall } from '../firewall/firewall-render.js';

/** What a device runs besides its policy: profile variables, firewall, routes. */
export interface DeviceConfig {
  variables: Record<string, string>;
  /**
   * nftables script; null until the device has a firewall ruleset (or NAT). Once it had one,
   * the script that removes Palisade's table when it has none any more.
   */
  nftables: string | null;
  /** iproute2 commands; null until a route is managed, then the cleanup when none is left. */
  routes: string | null;
}

export interface RenderedDeviceConfig extends DeviceConfig {
  /** Why the firewall could not render (the device then gets no nftables script). */
  problems: { rule: number | null; field: string; message: string }[];
}

export async function renderDeviceConfig(
  tx: Queryable,
  deviceId: number,
): Promise<RenderedDeviceConfig> {
  const [row] = await tx.query<{
    variables: Record<string, string> | null;
    network: DeviceNetwork;
    rules: FirewallRule[] | null;
    policies: ChainPolicies | null;
    nftables_managed: boolean;
    routes_managed: boolean;
  }>(
    `SELECT f.variables, d.network, s.rules, s.policies, d.nftables_managed, d.routes_managed
       FROM devices d LEFT JOIN device_profiles f ON f.id = d.profile_id
       LEFT JOIN firewall_rulesets s ON s.id = d.firewall_id
      WHERE d.id = $1`,
    [deviceId],
  );
  // Keys sorted so that the same variables always give the same bytes (and version).
  const variables = Object.fromEntries(
    Object.entries(row?.variables ?? {}).sort(([a], [b]) => a.localeCompare(b)),
  );
  if (!row) return { variables, nftables: null, routes: null, problems: [] };
  const firewall = renderDeviceFirewall({
    rules: row.rules ?? [],
    policies: row.policies ?? { input: 'accept', forward: 'accept', output: 'accept' },
    variables,
    network: row.network,
    hasRuleset: row.rules !== null,
    managed: { nftables: row.nftables_managed, routes: row.routes_managed },
  });
  return {
    variables,
    nftables: firewall.nftables,
    routes: firewall.routes,
    problems: firewall.problems,
  };
}

/**
 * The digest stored as a device's `config_sha256`: the agent module's bundle cache keys rendered
 * configurations by it, so both sides must compute it the same way.
 */
export function deviceConfigDigest(config: DeviceConfig): string {
  const { variables, nftables, routes } = config;
  return createHash('sha256').update(JSON.stringify({ variables, nftables, routes })).digest('hex');
}

/**
 * Re-renders the configuration of an organization's devices (or the given ones); a device's
 * config version moves exactly when its rendered configuration does. A device that gets an
 * nftables script or routes is marked as managed, so that it gets their removal once it has
 * none (which moves its version too). Connected agents hear of it on commit.
 */
export async function refreshDeviceConfigs(
  tx: Queryable,
  orgId: number,
  deviceIds?: number[],
): Promise<void> {
  const ids =
    deviceIds ??
    (await tx.query<{ id: number }>('SELECT id FROM devices WHERE org_id = $1', [orgId])).map(
      (row) => row.id,
    );
  for (const id of ids) {
    const { variables, nftables, routes } = await renderDeviceConfig(tx, id);
    const sha256 = deviceConfigDigest({ variables, nftables, routes });
    await tx.query(
      `UPDATE devices SET config_version = CASE WHEN config_sha256 = $2 THEN config_version ELSE config_version + 1 END,
              config_sha256 = $2,
              nftables_managed = nftables_managed OR $3, routes_managed = routes_managed OR $4
        WHERE id = $1`,
      [id, sha256, nftables !== null, routes !== null],
    );
  }
  await notifyDevices(tx, orgId, deviceIds);
}
