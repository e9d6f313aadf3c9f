import {
  DEFAULT_ORGANIZATION_SETTINGS,
  type DeployMode,
  type DeploymentCreate,
  type DeploymentDetail,
  type GateFailure,
  type ListResponse,
  type Deployment,
  type OrganizationSettings,
  type OrganizationSettingsUpdate,
  type PendingDeployments,
  type PendingDeviceDiff,
} from '@palisade/contract';
import type { Database, Queryable } from '../../db/client.js';
import { AppError, invalid, notFound } from '../../lib/app-error.js';
import { assertRole, EDITOR_ROLES, type Principal } from '../../plugins/auth.js';
import { notifyDevices } from '../../plugins/device-events.js';
import { countDeviceAlerts } from '../alerts/alerts.service.js';
import { checkDeployedRoutes, checkSavedLockout } from '../devices/saved-lockout.js';
import { lockoutGuard, lockoutOverrideRecords } from '../firewall/lockout.js';
import {
  changedFields,
  recordAudit,
  serverActor,
  userActor,
  type AuditActor,
} from '../audit/audit.service.js';
import { decideGate, type CanaryState } from './canary-gate.js';
import {
  configChanged,
  policyChanged,
  presentDeployment,
  presentDeploymentDetail,
  presentPending,
  presentSettings,
  presentVersions,
} from './deployments.presenter.js';
import { storeDeployedContents } from './deployed-contents.js';
import { deployedConfig, pendingDiff } from './pending-diff.js';
import {
  deploymentsRepository as repo,
  type PinnedRow,
  type SettingsRow,
} from './deployments.repository.js';

export { deployServerChange } from './server-deploy.js';

const MINUTE_MS = 60_000;
/** Who the audit log names for what the canary gate decides. */
export const GATE_ACTOR = serverActor('deploy gate');

const DEFAULT_SETTINGS_ROW: SettingsRow = { ...DEFAULT_ORGANIZATION_SETTINGS };

async function readSettings(db: Queryable, orgId: number): Promise<SettingsRow> {
  return (await repo.settings(db, orgId)) ?? DEFAULT_SETTINGS_ROW;
}

/**
 * For the devices module: a device created in an organization that stages its changes is
 * pinned at what it was created with, so later saves wait for a deploy as for every device.
 */
export async function pinNewDevice(tx: Queryable, orgId: number, deviceId: number) {
  const settings = await repo.settings(tx, orgId);
  if (settings?.deploy_mode === 'staged') await pin(tx, orgId, [deviceId]);
}

/**
 * The routes script a device that waits for deploys was last deployed (null: none was sent);
 * undefined when the device follows saves, so that what it runs is its last save.
 */
export async function deployedRoutesOf(
  db: Queryable,
  deviceId: number,
): Promise<string | null | undefined> {
  const digest = await repo.deployedConfigDigest(db, deviceId);
  if (digest === undefined) return undefined;
  return (await deployedConfig(db, { config_sha256: digest })).routes;
}

/** For the change preview: whether the organization applies saves at once or stages them. */
export async function deployModeOf(db: Queryable, orgId: number): Promise<DeployMode> {
  return (await readSettings(db, orgId)).deploy_mode;
}

/** For the change preview: what the next deploy would send these devices, in their order. */
export async function pendingDeviceChanges(
  db: Queryable,
  orgId: number,
  deviceIds: readonly number[],
): Promise<PendingDeviceDiff[]> {
  if (deviceIds.length === 0) return [];
  const rows = await repo.devicesVersions(db, orgId, deviceIds);
  const byId = new Map(rows.map((row) => [row.device_id, row]));
  const diffs: PendingDeviceDiff[] = [];
  for (const id of deviceIds) {
    const row = byId.get(id);
    if (row) diffs.push(await pendingDiff(db, row));
  }
  return diffs;
}

/** Pins devices that follow saves where they are, their content kept in the version store. */
async function pin(tx: Queryable, orgId: number, deviceIds?: readonly number[]) {
  const pinned = await repo.pin(tx, orgId, deviceIds);
  await storeDeployedContents(tx, pinned.map(contentOf));
  return pinned;
}

const contentOf = (row: PinnedRow) => ({
  deviceId: row.device_id,
  configSha256: row.config_sha256,
  policyId: row.policy_id,
  policySha256: row.policy_sha256,
});

async function detail(db: Queryable, orgId: number, id: number): Promise<DeploymentDetail> {
  const row = await repo.get(db, orgId, id);
  if (!row) throw notFound(`Deployment ${id}`);
  return presentDeploymentDetail(row, await repo.devices(db, id));
}

/** The devices a deploy reaches, its canaries among them, checked against what is pending. */
async function chooseDevices(tx: Queryable, orgId: number, body: DeploymentCreate) {
  const named = 'device_ids' in body ? [...new Set(body.device_ids)] : undefined;
  const rows = await repo.devicesVersions(tx, orgId, named);
  const missing = named?.find((id) => !rows.some((row) => row.device_id === id));
  if (missing !== undefined) throw notFound(`Device ${missing}`);
  const chosen = rows.filter((row) => configChanged(row) || policyChanged(row));
  const busy = chosen.find((row) => row.in_deployment !== null);
  if (busy) {
    throw new AppError(
      'conflict',
      `Device ${busy.device_name} is in deployment ${busy.in_deployment}, whose canary gate has not decided yet`,
    );
  }
  if (chosen.length === 0) throw new AppError('conflict', 'No device has a change to deploy');
  const canaries = new Set(body.canary?.device_ids ?? []);
  for (const id of canaries) {
    if (!chosen.some((row) => row.device_id === id)) {
      throw invalid(
        'canary.device_ids',
        `device ${id} is not among the devices with a change this deploy sends`,
      );
    }
  }
  return { chosen, canaries };
}

export function createDeploymentsService(db: Database, publicUrl: string) {
  return {
    async settings(principal: Principal): Promise<OrganizationSettings> {
      assertRole(principal, 'Administrator');
      return presentSettings(await readSettings(db, principal.orgId));
    },

    /**
     * PUT /organization/settings. Staging pins every device at what it is served now;
     * applying at once again unpins them, so everything saved meanwhile goes out (refused
     * while a canary deployment waits for its gate).
     */
    async updateSettings(
      principal: Principal,
      body: OrganizationSettingsUpdate,
    ): Promise<OrganizationSettings> {
      assertRole(principal, 'Administrator');
      return db.transaction(async (tx) => {
        const before = presentSettings(await repo.lockSettings(tx, principal.orgId));
        const after: OrganizationSettings = { ...before, ...body };
        if (before.deploy_mode !== after.deploy_mode) {
          if (after.deploy_mode === 'staged') {
            await pin(tx, principal.orgId);
          } else {
            const running = (await repo.canaryDeployments(tx)).find(
              (deployment) => deployment.org_id === principal.orgId,
            );
            if (running) {
              throw new AppError(
                'conflict',
                `Deployment ${running.id} waits for its canary gate: wait for it before applying changes at once`,
              );
            }
            await repo.unpinAll(tx, principal.orgId);
          }
          await notifyDevices(tx, principal.orgId);
        }
        await repo.writeSettings(tx, principal.orgId, after);
        const changes = changedFields(before, after);
        if (Object.keys(changes.after).length > 0) {
          await recordAudit(tx, {
            orgId: principal.orgId,
            actor: userActor(principal),
            action: 'update',
            object: { type: 'organization', id: principal.orgId, name: 'settings' },
            ...changes,
          });
        }
        return after;
      });
    },

    /** GET /devices/{id}/pending-deploy: the device's pending change, with its diffs. */
    async pendingDevice(principal: Principal, deviceId: number): Promise<PendingDeviceDiff> {
      const [row] = await repo.devicesVersions(db, principal.orgId, [deviceId]);
      if (!row) throw notFound(`Device ${deviceId}`);
      return pendingDiff(db, row);
    },

    async pending(principal: Principal): Promise<PendingDeployments> {
      const settings = await readSettings(db, principal.orgId);
      if (settings.deploy_mode === 'immediate') return { deploy_mode: 'immediate', data: [] };
      const rows = await repo.devicesVersions(db, principal.orgId);
      return {
        deploy_mode: 'staged',
        data: rows.filter((row) => configChanged(row) || policyChanged(row)).map(presentPending),
      };
    },

    /**
     * POST /deployments: the devices' pointers move to what was saved for them, the canaries'
     * at once and the others when the canary gate passes (or at once, without canaries).
     */
    async create(principal: Principal, body: DeploymentCreate): Promise<DeploymentDetail> {
      assertRole(principal, ...EDITOR_ROLES);
      const guard = await lockoutGuard(principal, body.override_lockout, publicUrl);
      const id = await db.transaction(async (tx) => {
        // One deploy of an organization at a time: the settings row is the lock.
        const settings = await repo.lockSettings(tx, principal.orgId);
        if (settings.deploy_mode === 'immediate') {
          throw new AppError(
            'conflict',
            'This organization applies every save at once: there is nothing to deploy',
          );
        }
        await pin(tx, principal.orgId);
        const { chosen, canaries } = await chooseDevices(tx, principal.orgId, body);
        // Every device's content is fixed here, the rest's too: the gate sends what was checked.
        const reconfigured = chosen.filter(configChanged);
        await checkSavedLockout(
          tx,
          principal.orgId,
          reconfigured.map((row) => row.device_id),
          guard,
        );
        // Routes against what each device was last deployed (pinned ones: every reconfigured).
        const sent: { id: number; deployedRoutes: string | null }[] = [];
        for (const row of reconfigured) {
          if (row.deployed === null) continue;
          const { routes } = await deployedConfig(tx, row.deployed);
          sent.push({ id: row.device_id, deployedRoutes: routes });
        }
        await checkDeployedRoutes(tx, principal.orgId, sent, guard);
        await storeDeployedContents(
          tx,
          chosen.map((row) => contentOf({ device_id: row.device_id, ...row.saved })),
        );
        const staged = canaries.size > 0;
        const deploymentId = await repo.insertDeployment(tx, {
          orgId: principal.orgId,
          status: staged ? 'canary' : 'deployed',
          createdBy: principal.email,
          settings,
          gateDueAt: staged
            ? new Date(Date.now() + settings.canary_wait_minutes * MINUTE_MS)
            : null,
        });
        await repo.addDevices(
          tx,
          deploymentId,
          chosen.map((row) => ({
            id: row.device_id,
            canary: canaries.has(row.device_id),
            move: !staged || canaries.has(row.device_id),
            from: row.deployed,
            to: row.saved,
          })),
        );
        const moved = await repo.movePointers(tx, deploymentId, 'moved');
        await notifyDevices(tx, principal.orgId, moved);
        const object = {
          type: 'deployment' as const,
          id: deploymentId,
          name: `deployment ${deploymentId}`,
        };
        await recordAudit(
          tx,
          {
            orgId: principal.orgId,
            actor: userActor(principal),
            action: 'deploy',
            object,
            after: {
              status: staged ? 'canary' : 'deployed',
              devices: chosen.map((row) => ({
                id: row.device_id,
                name: row.device_name,
                from: row.deployed && presentVersions(row.deployed),
                to: presentVersions(row.saved),
              })),
              canary: [...canaries],
            },
          },
          ...lockoutOverrideRecords(guard, principal, object),
        );
        return deploymentId;
      });
      return detail(db, principal.orgId, id);
    },

    async list(
      principal: Principal,
      page: { limit: number; offset: number },
    ): Promise<ListResponse<Deployment>> {
      const { rows, total } = await repo.list(db, principal.orgId, page);
      return { data: rows.map(presentDeployment), recordsTotal: total };
    },

    get: (principal: Principal, id: number) => detail(db, principal.orgId, id),
  };
}

/**
 * The canary gate, run by the scheduled job on one replica at a time: each canary deployment
 * is decided (decideGate) in its own transaction, its row locked so that a run overlapping
 * another's cannot decide it twice. `now` is the clock (tests move it).
 */
export async function runDeployGates(
  db: Database,
  now = new Date(),
): Promise<{ id: number; decision: 'wait' | 'pass' | 'fail' }[]> {
  const decided: { id: number; decision: 'wait' | 'pass' | 'fail' }[] = [];
  for (const { id } of await repo.canaryDeployments(db)) {
    const decision = await db.transaction((tx) => decideDeployment(tx, id, now));
    if (decision) decided.push({ id, decision });
  }
  return decided;
}

async function decideDeployment(tx: Queryable, id: number, now: Date) {
  const deployment = await repo.get(tx, null, id, { lock: true });
  if (deployment?.status !== 'canary') return undefined;
  const parameters = {
    waitMinutes: deployment.canary_wait_minutes,
    alertFactor: Number(deployment.canary_alert_factor),
    heartbeatGraceSeconds: deployment.canary_heartbeat_grace_seconds,
  };
  const rows = await repo.canaries(tx, id);
  const waitMs = parameters.waitMinutes * MINUTE_MS;
  const counts = await countDeviceAlerts(
    tx,
    rows.flatMap((row) => {
      const moved = new Date(row.moved_at);
      return [
        {
          key: `${row.device_id}:before`,
          deviceId: row.device_id,
          since: new Date(moved.getTime() - waitMs),
          until: moved,
        },
        { key: `${row.device_id}:after`, deviceId: row.device_id, since: moved, until: now },
      ];
    }),
  );
  const canaries: CanaryState[] = rows.map((row) => ({
    deviceId: row.device_id,
    deviceName: row.device_name,
    target: presentVersions(row.to),
    movedAt: new Date(row.moved_at),
    local: { config_version: row.config_version_local, policy_version: row.policy_version_local },
    lastSeen: row.last_seen === null ? null : new Date(row.last_seen),
    applyError: row.state === 'error' ? row.last_error : null,
    alertsBefore: counts.get(`${row.device_id}:before`) ?? 0,
    alertsAfter: counts.get(`${row.device_id}:after`) ?? 0,
  }));
  const result = decideGate(canaries, parameters, now);
  if (result.decision === 'wait') return 'wait';
  const object = { type: 'deployment' as const, id, name: `deployment ${id}` };
  if (result.decision === 'pass') {
    const moved = await repo.movePointers(tx, id, 'waiting');
    await repo.finish(tx, id, 'deployed', null);
    await notifyDevices(tx, deployment.org_id, moved);
    await audit(tx, deployment.org_id, GATE_ACTOR, 'deploy', object, {
      status: 'deployed',
      gate: 'passed',
      devices: moved,
    });
    return 'pass';
  }
  const failure: GateFailure = {
    device_id: result.deviceId,
    device_name: result.deviceName,
    condition: result.condition,
    detail: result.detail,
  };
  const back = await repo.rollBackCanaries(tx, id);
  await repo.finish(tx, id, 'rolled_back', failure);
  await notifyDevices(tx, deployment.org_id, back);
  await audit(tx, deployment.org_id, GATE_ACTOR, 'rollback', object, {
    status: 'rolled_back',
    failure,
    devices: back,
  });
  return 'fail';
}

const audit = (
  tx: Queryable,
  orgId: number,
  actor: AuditActor,
  action: 'deploy' | 'rollback',
  object: { type: 'deployment'; id: number; name: string },
  after: unknown,
) => recordAudit(tx, { orgId, actor, action, object, after });
