import type { ChainPolicies, FirewallRule } from '@palisade/contract';
import type { Queryable } from '../../db/client.js';
import { checkNoLockout, type LockoutGuard, type ReportedEndpoint } from '../firewall/lockout.js';

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
  const [read] = await tx.query<{
    devices: [number, string, number, number | null, ReportedEndpoint | null][] | null;
    rulesets: Record<string, [FirewallRule[], ChainPolicies]> | null;
    profiles: Record<string, Record<string, string> | null> | null;
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
