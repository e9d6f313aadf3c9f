import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/client.js';
import { notifyDevices } from '../../plugins/device-events.js';

/** What a device runs besides its policy: profile variables, firewall, routes. */
export interface DeviceConfig {
  variables: Record<string, string>;
  /** nftables script; null until the device has a firewall ruleset. */
  nftables: string | null;
  /** iproute2 commands; null while no route is managed. */
  routes: string | null;
}

export async function renderDeviceConfig(tx: Queryable, deviceId: number): Promise<DeviceConfig> {
  const [row] = await tx.query<{ variables: Record<string, string> | null }>(
    `SELECT f.variables FROM devices d LEFT JOIN device_profiles f ON f.id = d.profile_id WHERE d.id = $1`,
    [deviceId],
  );
  const variables = row?.variables ?? {};
  // Keys sorted so that the same variables always give the same bytes (and version).
  const sorted = Object.fromEntries(
    Object.entries(variables).sort(([a], [b]) => a.localeCompare(b)),
  );
  return { variables: sorted, nftables: null, routes: null };
}

/**
 * Re-renders the configuration of an organization's devices (or the given ones); a device's
 * config version moves exactly when its rendered configuration does. Connected agents hear
 * of it on commit.
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
    const config = await renderDeviceConfig(tx, id);
    const sha256 = createHash('sha256').update(JSON.stringify(config)).digest('hex');
    await tx.query(
      `UPDATE devices SET config_version = CASE WHEN config_sha256 = $2 THEN config_version ELSE config_version + 1 END,
              config_sha256 = $2 WHERE id = $1`,
      [id, sha256],
    );
  }
  await notifyDevices(tx, orgId);
}
