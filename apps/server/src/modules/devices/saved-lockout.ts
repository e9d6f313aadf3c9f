import type { DeviceNetwork } from '@palisade/contract';
import { renderRoutes } from '@palisade/firewall';
import type { Queryable } from '../../db/client.js';
import { checkNoLockout, checkNoRouteLockout, type LockoutGuard } from '../firewall/lockout.js';
import { listVersions, versionAt } from '../versions/versions.service.js';
import { deviceConfigRepository as repo } from './device-config.repository.js';

const NO_NETWORK: DeviceNetwork = { l3_mode: false, routes: [], source_nat: [], port_forwards: [] };
/** How far back a device's routes/NAT versions are searched for the one it was deployed. */
const NETWORK_VERSIONS_SEARCHED = 50;

/**
 * The lock-out check of what these devices' saved configurations would send them: a staged
 * deploy runs it before any pointer moves, so that a ruleset saved while staged (or let through
 * by an override then) cannot cut a device off when it is finally deployed. Devices of one
 * ruleset and profile that reach the server the same way are checked once, as a save checks.
 */
export async function checkSavedLockout(
  tx: Queryable,
  orgId: number,
  deviceIds: readonly number[],
  guard: LockoutGuard,
): Promise<void> {
  if (deviceIds.length === 0) return;
  const read = await repo.readLockoutSources(tx, orgId, deviceIds);
  const checked = new Set<string>();
  for (const [id, name, firewallId, profileId, endpoint] of read?.devices ?? []) {
    const ruleset = read?.rulesets?.[firewallId];
    const key = JSON.stringify([firewallId, profileId, endpoint]);
    if (!ruleset || checked.has(key)) continue;
    checked.add(key);
    checkNoLockout(tx, guard, {
      id,
      name,
      rules: ruleset[0],
      policies: ruleset[1],
      variables: (profileId === null ? null : read?.profiles?.[profileId]) ?? {},
      endpoint,
    });
  }
}

/**
 * The routes/NAT a device was last deployed: null when Palisade sent it no routes (its own
 * routes carry everything), else the newest of its network versions whose routes render the
 * script it was sent; undefined when none of the recent ones does (nothing to compare with).
 */
async function deployedNetwork(
  tx: Queryable,
  orgId: number,
  deviceId: number,
  deployedRoutes: string | null,
  routesManaged: boolean,
): Promise<DeviceNetwork | undefined> {
  if (deployedRoutes === null) return NO_NETWORK;
  const { rows } = await listVersions(tx, 'device_network', orgId, deviceId, {
    limit: NETWORK_VERSIONS_SEARCHED,
    offset: 0,
  });
  for (const { version } of rows) {
    const stored = await versionAt(tx, 'device_network', orgId, deviceId, version);
    const network = (stored?.definition as { network?: DeviceNetwork } | undefined)?.network;
    if (network && renderRoutes(network, { managed: routesManaged }) === deployedRoutes)
      return network;
  }
  return undefined;
}

/**
 * The routes lock-out check of a staged deploy: what each device would get against what it was
 * last deployed (not against the save before, which a staged organization may have saved over
 * several times, or let through with an override), refused or recorded as a save's is.
 */
export async function checkDeployedRoutes(
  tx: Queryable,
  orgId: number,
  devices: readonly { id: number; deployedRoutes: string | null }[],
  guard: LockoutGuard,
): Promise<void> {
  if (devices.length === 0) return;
  const rows = await repo.readRoutesCheck(
    tx,
    orgId,
    devices.map((device) => device.id),
  );
  const deployed = new Map(devices.map((device) => [device.id, device.deployedRoutes]));
  for (const row of rows) {
    const sent = deployed.get(row.id) ?? null;
    // Routes neither sent nor saved: nothing moves the path to the server.
    if (sent === null && row.network.routes.length === 0) continue;
    const before = await deployedNetwork(tx, orgId, row.id, sent, row.routes_managed);
    if (before === undefined) continue;
    checkNoRouteLockout(tx, guard, {
      id: row.id,
      name: row.name,
      before,
      after: row.network,
      endpoint: row.server_endpoint,
    });
  }
}

/**
 * What a routes save is checked against: for a device waiting for deploys, the routes it was
 * last deployed (what it runs, however many saves or overrides came since); else, or when
 * those routes are not among its recent versions, what was saved before.
 */
export async function routesBeforeSave(
  tx: Queryable,
  orgId: number,
  deviceId: number,
  deployedRoutes: string | null | undefined,
  saved: DeviceNetwork,
): Promise<DeviceNetwork> {
  if (deployedRoutes === undefined) return saved;
  const [row] = await repo.readRoutesCheck(tx, orgId, [deviceId]);
  if (!row) return saved;
  return (await deployedNetwork(tx, orgId, deviceId, deployedRoutes, row.routes_managed)) ?? saved;
}
