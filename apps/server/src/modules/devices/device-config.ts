import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/client.js';
import { notifyDevices } from '../../plugins/device-events.js';
import { renderDeviceFirewall } from '../firewall/firewall-render.js';
import type { RulesetOrigins } from '../firewall/firewall-hits.service.js';
import type { LockoutGuard } from '../firewall/lockout.js';
import { checkNoLockout } from '../firewall/lockout.js';
import { deviceConfigRepository as repo, type ConfigSource } from './device-config.repository.js';

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
  /**
   * The ruleset the script was rendered from and which of its rules each of the script's filter
   * rules comes from (firewall hits); null without a ruleset or a script.
   */
  ruleset: RulesetOrigins | null;
}

export async function renderDeviceConfig(
  tx: Queryable,
  deviceId: number,
): Promise<RenderedDeviceConfig> {
  const row = await repo.findConfigSource(tx, deviceId);
  if (!row) {
    return {
      variables: sortedVariables(null),
      nftables: null,
      routes: null,
      problems: [],
      ruleset: null,
    };
  }
  return renderConfigOf(row);
}

// Keys sorted so that the same variables always give the same bytes (and version).
const sortedVariables = (variables: Record<string, string> | null) =>
  Object.fromEntries(Object.entries(variables ?? {}).sort(([a], [b]) => a.localeCompare(b)));

function renderConfigOf(row: ConfigSource): RenderedDeviceConfig {
  const variables = sortedVariables(row.variables);
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
    ruleset:
      row.firewall_id !== null && row.rules !== null && firewall.origins !== null
        ? { rulesetId: row.firewall_id, rules: row.rules, origins: firewall.origins }
        : null,
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
 *
 * Two statements however many devices: one read of the devices with the profiles and rulesets
 * they use, one UPDATE of those whose configuration changed. Devices with the same profile,
 * ruleset, network and managed marks render the same bytes, so each such shape renders once
 * (a ruleset change reaching ten thousand devices renders a handful of scripts).
 */
export async function refreshDeviceConfigs(
  tx: Queryable,
  orgId: number,
  deviceIds?: number[],
  /** Given for a firewall change: refuse it when it would cut a device off (see lockout.ts). */
  lockout?: LockoutGuard,
): Promise<void> {
  const read = await repo.readConfigShapes(tx, orgId, deviceIds, lockout !== undefined);
  const variablesOf = (profileId: number | null) =>
    profileId === null ? null : (read?.profiles?.[profileId] ?? null);
  const rulesetOf = (firewallId: number | null) =>
    firewallId === null ? undefined : read?.rulesets?.[firewallId];
  const shaByShape = new Map<string, { sha256: string; nftables: boolean; routes: boolean }>();
  // Devices of one shape that reach the server the same way need one lock-out check.
  const lockoutChecked = new Set<string>();
  const ids: number[] = [];
  const shas: string[] = [];
  const nftables: boolean[] = [];
  const routes: boolean[] = [];
  for (const device of read?.devices ?? []) {
    const [id, profileId, firewallId, network, nftManaged, routesManaged] = device;
    const shape = JSON.stringify([profileId, firewallId, nftManaged, routesManaged, network]);
    let rendered = shaByShape.get(shape);
    if (!rendered) {
      const ruleset = rulesetOf(firewallId);
      const config = renderConfigOf({
        firewall_id: firewallId,
        variables: variablesOf(profileId),
        network,
        rules: ruleset?.[0] ?? null,
        policies: ruleset?.[1] ?? null,
        nftables_managed: nftManaged,
        routes_managed: routesManaged,
      });
      rendered = {
        sha256: deviceConfigDigest(config),
        nftables: config.nftables !== null,
        routes: config.routes !== null,
      };
      shaByShape.set(shape, rendered);
    }
    const ruleset = rulesetOf(firewallId);
    // Only a device whose firewall script is about to change is checked.
    if (lockout && ruleset && rendered.nftables) {
      const [, , , , , , name = '', storedSha = null, endpoint = null] = device;
      const lockoutKey = `${shape} ${JSON.stringify(endpoint)}`;
      if (rendered.sha256 !== storedSha && !lockoutChecked.has(lockoutKey)) {
        lockoutChecked.add(lockoutKey);
        checkNoLockout(tx, lockout, {
          id,
          name,
          rules: ruleset[0],
          policies: ruleset[1],
          variables: sortedVariables(variablesOf(profileId)),
          endpoint,
        });
      }
    }
    ids.push(id);
    shas.push(rendered.sha256);
    nftables.push(rendered.nftables);
    routes.push(rendered.routes);
  }
  if (ids.length > 0) {
    await repo.storeConfigDigests(tx, { ids, shas, nftables, routes });
  }
  await notifyDevices(tx, orgId, deviceIds);
}
