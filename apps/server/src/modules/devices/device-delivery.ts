import type { Queryable } from '../../db/client.js';
import { deviceConfigRepository as repo } from './device-config.repository.js';

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
  const devices = await repo.readDeliveries(tx, orgId);
  const byId = new Map<number, DeviceDelivery>();
  for (const [id, name, configSha256, policyId, policyName, version, sha256] of devices ?? []) {
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
