import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { renderDeviceConfig } from '../devices/device-config.js';
import { keepDeployedHitKeys, type RulesetOrigins } from '../firewall/firewall-hits.service.js';
import { renderPolicyById } from '../policies/policies.service.js';
import { renderedContent, storeContents } from '../versions/versions.service.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Keeps in the version store what devices are about to be pinned at, so that their agents are
 * still served it after later saves (bundle-cache.ts reads it by digest). A device's
 * configuration is stored as the JSON its digest is taken of (`deviceConfigDigest`), rendered
 * once per distinct digest; a policy's text is stored with each of its versions and rendered
 * here only when missing. A configuration's firewall rule keys are kept with it (firewall hits
 * of a device that runs it). Called in the deploy's transaction, with digests just read there: a
 * render that no longer matches means a save landed meanwhile, and the deploy is refused.
 */
export async function storeDeployedContents(
  tx: Queryable,
  devices: readonly {
    deviceId: number;
    configSha256: string;
    policyId: number | null;
    policySha256: string;
  }[],
): Promise<void> {
  const configs = new Map<string, number>();
  const policies = new Map<string, number>();
  for (const device of devices) {
    if (device.configSha256 !== '' && !configs.has(device.configSha256))
      configs.set(device.configSha256, device.deviceId);
    if (device.policyId !== null && device.policySha256 !== '')
      policies.set(device.policySha256, device.policyId);
  }
  const bodies: { sha256: string; body: string }[] = [];
  const firewalls: { configSha256: string; ruleset: RulesetOrigins }[] = [];
  for (const [digest, deviceId] of configs) {
    const { variables, nftables, routes, ruleset } = await renderDeviceConfig(tx, deviceId);
    const body = JSON.stringify({ variables, nftables, routes });
    if (sha256(body) !== digest) throw changedMeanwhile();
    bodies.push({ sha256: digest, body });
    if (ruleset) firewalls.push({ configSha256: digest, ruleset });
  }
  await keepDeployedHitKeys(tx, firewalls);
  for (const [digest, policyId] of policies) {
    if ((await renderedContent(tx, digest)) !== null) continue;
    const output = await renderPolicyById(tx, policyId);
    const body = `${output.rules}\0${output.thresholds}`;
    if (sha256(body) !== digest) throw changedMeanwhile();
    bodies.push({ sha256: digest, body });
  }
  if (bodies.length > 0) await storeContents(tx, bodies);
}

const changedMeanwhile = () =>
  new AppError(
    'conflict',
    'A change was saved while deploying: look at what is pending and deploy again',
  );
