import type { Queryable } from '../../db/client.js';

/** What an organization's devices are due to run: their config digest and policy version. */
export interface DeviceDelivery {
  id: number;
  name: string;
  configSha256: string;
  policy: { id: number; name: string; version: number; sha256: string } | null;
}

/**
 * Every device of the organization with what it is due to receive, in one statement (one JSON
 * value: the embedded database decodes rows one value at a time). A change preview reads it
 * before and after the change to find the devices the change reaches.
 */
export async function deviceDeliveries(
  tx: Queryable,
  orgId: number,
): Promise<Map<number, DeviceDelivery>> {
  const [row] = await tx.query<{
    devices:
      [number, string, string, number | null, string | null, number | null, string | null][] | null;
  }>(
    `SELECT json_agg(json_build_array(d.id, d.name, d.config_sha256, p.id, p.name, p.version,
                                      p.rendered_sha256) ORDER BY d.id) AS devices
       FROM devices d LEFT JOIN policies p ON p.id = d.policy_id
      WHERE d.org_id = $1`,
    [orgId],
  );
  const byId = new Map<number, DeviceDelivery>();
  for (const [id, name, configSha256, policyId, policyName, version, sha256] of row?.devices ??
    []) {
    byId.set(id, {
      id,
      name,
      configSha256,
      policy:
        policyId === null
          ? null
          : { id: policyId, name: policyName ?? '', version: version ?? 0, sha256: sha256 ?? '' },
    });
  }
  return byId;
}
