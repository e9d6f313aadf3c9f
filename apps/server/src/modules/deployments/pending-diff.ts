import type { PendingDeviceDiff } from '@palisade/contract';
import type { Queryable } from '../../db/client.js';
import { renderDeviceConfig, type DeviceConfig } from '../devices/device-config.js';
import { renderPolicyById } from '../policies/policies.service.js';
import { rulesDiff, textDiff, variablesDiff } from '../preview/preview-diff.js';
import { policyFiles, renderedContent } from '../versions/versions.service.js';
import { presentVersions } from './deployments.presenter.js';
import type { PendingRow, VersionsRow } from './deployments.repository.js';

const NO_CONFIG: DeviceConfig = { variables: {}, nftables: null, routes: null };

/** The device configuration a pointer names, from the version store. */
export async function deployedConfig(
  db: Queryable,
  pointer: Pick<VersionsRow, 'config_sha256'>,
): Promise<DeviceConfig> {
  const text =
    pointer.config_sha256 === '' ? null : await renderedContent(db, pointer.config_sha256);
  return text === null ? NO_CONFIG : (JSON.parse(text) as DeviceConfig);
}

/** A policy's two files by the digest a pointer names (rendered when the store lacks it). */
async function policyText(db: Queryable, versions: VersionsRow) {
  if (versions.policy_id === null) return { rules: '', thresholds: '' };
  const text = await renderedContent(db, versions.policy_sha256);
  if (text !== null) return policyFiles(text);
  return renderPolicyById(db, versions.policy_id);
}

const namedPolicy = (versions: VersionsRow, name: string | null) =>
  versions.policy_id === null
    ? null
    : { id: versions.policy_id, name: name ?? '', version: versions.policy_version };

/**
 * What a deploy would send the device against what was deployed to it, in a change preview's
 * device shape and with the preview's diff helpers: the Deploy page and Review changes show
 * the same thing the same way. Unlike a preview, parts that do not move are null.
 */
export async function pendingDiff(db: Queryable, row: PendingRow): Promise<PendingDeviceDiff> {
  const deployed = row.deployed ?? row.saved;
  const configMoved = deployed.config_sha256 !== row.saved.config_sha256;
  const policyMoved =
    deployed.policy_id !== row.saved.policy_id ||
    deployed.policy_sha256 !== row.saved.policy_sha256;
  const [before, after, oldPolicy, newPolicy] = await Promise.all([
    deployedConfig(db, deployed),
    renderDeviceConfig(db, row.device_id),
    policyText(db, deployed),
    policyText(db, row.saved),
  ]);
  const deployedName = row.deployed ? row.deployed_policy_name : row.saved_policy_name;
  return {
    id: row.device_id,
    name: row.device_name,
    deployed: presentVersions(deployed),
    saved: presentVersions(row.saved),
    policy: policyMoved
      ? {
          from: namedPolicy(deployed, deployedName),
          to: namedPolicy(row.saved, row.saved_policy_name),
          ...rulesDiff(oldPolicy.rules, newPolicy.rules),
          thresholds_diff: textDiff('threshold.config', oldPolicy.thresholds, newPolicy.thresholds),
        }
      : null,
    nftables_diff: configMoved ? textDiff('nftables', before.nftables, after.nftables) : null,
    routes_diff: configMoved ? textDiff('routes', before.routes, after.routes) : null,
    variables: configMoved ? variablesDiff(before.variables, after.variables) : null,
  };
}
