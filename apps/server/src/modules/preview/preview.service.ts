import {
  PREVIEW_DEVICES_DETAILED,
  type ChangePreview,
  type PreviewDevice,
} from '@palisade/contract';
import type { Database, Queryable } from '../../db/client.js';
import { assertRole, EDITOR_ROLES, type Principal } from '../../plugins/auth.js';
import { deployModeOf, pendingDeviceChanges } from '../deployments/deployments.service.js';
import { renderDeviceConfig, type RenderedDeviceConfig } from '../devices/device-config.js';
import { deviceDeliveries, type DeviceDelivery } from '../devices/device-delivery.js';
import { collectLockouts, type LockoutFinding } from '../firewall/lockout.js';
import { renderPolicyById } from '../policies/policies.service.js';
import { rulesDiff, textDiff, variablesDiff } from './preview-diff.js';

/** Thrown through the write's transaction to roll it back once the preview is read. */
class PreviewDone extends Error {
  constructor() {
    super('preview rolled back');
  }
}

/** A write to preview: the service call, made on the database it is given. */
export type PreviewedWrite = (db: Database) => Promise<unknown>;

/**
 * "See before you send": runs the very service call a save makes, on a database whose
 * transaction is never committed. Inside it, what every device of the organization is due to
 * receive is read before and after the write; the devices whose configuration or policy moved
 * are those the save reaches. For the first PREVIEW_DEVICES_DETAILED of them, what they would
 * receive is rendered after the write, the write is rolled back to a savepoint, the same is
 * rendered as it stands, and the differences make the answer. Then everything is rolled back:
 * no row, no version moves, and no NOTIFY is sent (PostgreSQL delivers them on commit only).
 *
 * The lock-out check, which refuses a save, records what it finds in a preview instead, so that
 * the user sees which device would be cut off, and why, before pressing Save. Whatever else
 * refuses the save (validation, role, another organization's object) refuses its preview alike.
 */
export async function previewChange(
  db: Database,
  principal: Principal,
  write: PreviewedWrite,
): Promise<ChangePreview> {
  // Every write previewed is an editor's: refused before anything is read.
  assertRole(principal, ...EDITOR_ROLES);
  let preview: ChangePreview | undefined;
  let ran = false;
  const dryRun: Database = {
    kind: db.kind,
    query: (sql, params) => db.query(sql, params),
    copyFrom: (sql, rows, options) => db.copyFrom(sql, rows, options),
    listen: (channel, handler, onReconnect) => db.listen(channel, handler, onReconnect),
    close: () => db.close(),
    async transaction(fn) {
      // Writes are single transactions; a second would act on the first's rolled-back state.
      if (ran) throw new Error('A previewed write may run one transaction');
      ran = true;
      await db
        .transaction(async (tx) => {
          preview = await previewIn(tx, principal.orgId, fn);
          throw new PreviewDone();
        })
        .catch((error: unknown) => {
          if (!(error instanceof PreviewDone)) throw error;
        });
      // The service stops here: what it would do after its commit must not happen.
      throw new PreviewDone();
    },
  };
  try {
    await write(dryRun);
  } catch (error) {
    if (!(error instanceof PreviewDone)) throw error;
  }
  return preview ?? emptyPreview();
}

const emptyPreview = (): ChangePreview => ({
  deploy_mode: 'immediate',
  devices_reached: 0,
  config_changed: 0,
  policy_changed: 0,
  devices: [],
  devices_truncated: false,
  lockout: [],
});

async function previewIn(
  tx: Queryable,
  orgId: number,
  write: (tx: Queryable) => Promise<unknown>,
): Promise<ChangePreview> {
  const mode = await deployModeOf(tx, orgId);
  const before = await deviceDeliveries(tx, orgId);
  await tx.query('SAVEPOINT palisade_preview');
  const lockout: LockoutFinding[] = [];
  collectLockouts(tx, lockout);
  await write(tx);
  const after = await deviceDeliveries(tx, orgId);

  let configChanged = 0;
  let policyChanged = 0;
  const reached: { now: DeviceDelivery; was: DeviceDelivery | undefined }[] = [];
  for (const now of after.values()) {
    const was = before.get(now.id);
    const config = was?.configSha256 !== now.configSha256;
    const policy = was?.policy?.id !== now.policy?.id || was?.policy?.sha256 !== now.policy?.sha256;
    if (config) configChanged += 1;
    if (policy) policyChanged += 1;
    if (config || policy) reached.push({ now, was });
  }
  const detailed = reached.slice(0, PREVIEW_DEVICES_DETAILED);
  const summary = {
    deploy_mode: mode,
    devices_reached: reached.length,
    config_changed: configChanged,
    policy_changed: policyChanged,
    devices_truncated: reached.length > detailed.length,
    lockout: lockout.slice(0, PREVIEW_DEVICES_DETAILED),
  };
  if (mode === 'staged') {
    // Saved, not sent: each device's detail is what the next deploy would send it.
    const pending = await pendingDeviceChanges(
      tx,
      orgId,
      detailed.map(({ now }) => now.id),
    );
    return { ...summary, devices: pending.map(({ deployed: _d, saved: _s, ...device }) => device) };
  }
  const rendersAfter = await renderFor(
    tx,
    detailed.map(({ now }) => now),
  );
  await tx.query('ROLLBACK TO SAVEPOINT palisade_preview');
  const rendersBefore = await renderFor(
    tx,
    detailed.flatMap(({ was }) => (was ? [was] : [])),
  );

  const devices = detailed.map(({ now, was }): PreviewDevice => {
    const configBefore = rendersBefore.configs.get(now.id);
    const configAfter = rendersAfter.configs.get(now.id);
    const configMoved = was?.configSha256 !== now.configSha256;
    const policyMoved =
      was?.policy?.id !== now.policy?.id || was?.policy?.sha256 !== now.policy?.sha256;
    const rulesBefore = was?.policy ? rendersBefore.policies.get(was.policy.id) : undefined;
    const rulesAfter = now.policy ? rendersAfter.policies.get(now.policy.id) : undefined;
    const named = (policy: DeviceDelivery['policy']) =>
      policy && { id: policy.id, name: policy.name, version: policy.version };
    return {
      id: now.id,
      name: now.name,
      policy: policyMoved
        ? {
            from: named(was?.policy ?? null),
            to: named(now.policy),
            ...rulesDiff(rulesBefore?.rules ?? '', rulesAfter?.rules ?? ''),
            thresholds_diff: textDiff(
              'threshold.config',
              rulesBefore?.thresholds ?? null,
              rulesAfter?.thresholds ?? null,
            ),
          }
        : null,
      nftables_diff: configMoved
        ? textDiff('nftables', configBefore?.nftables ?? null, configAfter?.nftables ?? null)
        : null,
      routes_diff: configMoved
        ? textDiff('routes', configBefore?.routes ?? null, configAfter?.routes ?? null)
        : null,
      variables: configMoved
        ? variablesDiff(configBefore?.variables ?? {}, configAfter?.variables ?? {})
        : null,
    };
  });
  return { ...summary, devices };
}

/** Each device's configuration and each distinct policy's rules, as they stand in `tx`. */
async function renderFor(tx: Queryable, devices: DeviceDelivery[]) {
  const configs = new Map<number, RenderedDeviceConfig>();
  const policies = new Map<number, { rules: string; thresholds: string }>();
  for (const device of devices) {
    configs.set(device.id, await renderDeviceConfig(tx, device.id));
    if (device.policy && !policies.has(device.policy.id)) {
      const output = await renderPolicyById(tx, device.policy.id);
      policies.set(device.policy.id, { rules: output.rules, thresholds: output.thresholds });
    }
  }
  return { configs, policies };
}
