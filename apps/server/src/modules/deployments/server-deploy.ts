import type { Queryable } from '../../db/client.js';
import { notifyDevices } from '../../plugins/device-events.js';
import { recordAudit, type AuditActor } from '../audit/audit.service.js';
import { storeDeployedContents } from './deployed-contents.js';
import { configChanged, policyChanged, presentVersions } from './deployments.presenter.js';
import { deploymentsRepository as repo, type PendingRow } from './deployments.repository.js';

const pending = (row: PendingRow) => configChanged(row) || policyChanged(row);

/**
 * For a change the server makes on its own that must take effect when due (an expiry): runs
 * `change` in `tx` and, in an organization that stages its changes, deploys at once what it
 * moved to each device that had nothing pending before it (its pointer at what was saved, in no
 * canary deployment), as a deployment by `actor`, audited, the devices told to pull. A device
 * that had other changes pending keeps them pending, this one with them: deploying it would
 * send what nobody deployed. In an organization that applies saves at once, only `change` runs.
 */
export async function deployServerChange<T>(
  tx: Queryable,
  orgId: number,
  actor: AuditActor,
  change: () => Promise<T>,
): Promise<T> {
  if ((await repo.settings(tx, orgId))?.deploy_mode !== 'staged') return change();
  // One deploy of an organization at a time, as a user's (the settings row is the lock); taken
  // before the change, so that deploys and this change lock in the same order.
  const settings = await repo.lockSettings(tx, orgId);
  if (settings.deploy_mode !== 'staged') return change();
  const current = (await repo.devicesVersions(tx, orgId))
    .filter((row) => row.deployed !== null && row.in_deployment === null && !pending(row))
    .map((row) => row.device_id);
  const result = await change();
  if (current.length === 0) return result;
  const moved = (await repo.devicesVersions(tx, orgId, current)).filter(pending);
  if (moved.length === 0) return result;
  await storeDeployedContents(
    tx,
    moved.map((row) => ({
      deviceId: row.device_id,
      configSha256: row.saved.config_sha256,
      policyId: row.saved.policy_id,
      policySha256: row.saved.policy_sha256,
    })),
  );
  const id = await repo.insertDeployment(tx, {
    orgId,
    status: 'deployed',
    createdBy: actor.name,
    settings,
    gateDueAt: null,
  });
  await repo.addDevices(
    tx,
    id,
    moved.map((row) => ({
      id: row.device_id,
      canary: false,
      move: true,
      from: row.deployed,
      to: row.saved,
    })),
  );
  await notifyDevices(tx, orgId, await repo.movePointers(tx, id, 'moved'));
  await recordAudit(tx, {
    orgId,
    actor,
    action: 'deploy',
    object: { type: 'deployment', id, name: `deployment ${id}` },
    after: {
      status: 'deployed',
      devices: moved.map((row) => ({
        id: row.device_id,
        name: row.device_name,
        from: row.deployed && presentVersions(row.deployed),
        to: presentVersions(row.saved),
      })),
      canary: [],
    },
  });
  return result;
}
