import {
  DEVICE_ALERTS_SHOWN,
  type Device,
  type DeviceNetwork,
  type DeviceNetworkWrite,
  type DeviceUpdate,
  type DeviceUpgradeRequest,
  type DeviceSummary,
  type DeviceSummaryQuery,
  type DeviceUpgradeResult,
  type DeviceWrite,
  type ListQuery,
  type ListResponse,
  type RollbackResponse,
} from '@palisade/contract';
import type { z } from 'zod';
import type { Database, Queryable } from '../../db/client.js';
import { orConflict } from '../../db/errors.js';
import { isoFromEpochMicros } from '../../db/microsecond-time.js';
import { buildListSql } from '../../db/list-query.js';
import { isOutdated } from '../../lib/agent-version.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { hashSecret } from '../../lib/passwords.js';
import { assertRole, EDITOR_ROLES, type Principal } from '../../plugins/auth.js';
import { notifyDevices } from '../../plugins/device-events.js';
import { latestDeviceAlerts } from '../alerts/alert-windows.js';
import { deployedRoutesOf, pinNewDevice } from '../deployments/deployments.service.js';
import { changedFields, recordAudit, userActor, type AuditEntry } from '../audit/audit.service.js';
import { isOwnRuleset } from '../firewall/firewall.service.js';
import { checkNoRouteLockout, lockoutGuard, lockoutOverrideRecords } from '../firewall/lockout.js';
import { isOwnPolicy } from '../policies/policies.service.js';
import { isOwnProfile } from '../profiles/profiles.service.js';
import {
  latestVersion,
  recordVersions,
  rollbackAnswer,
  versionAt,
} from '../versions/versions.service.js';
import { refreshDeviceConfigs, renderDeviceConfig } from './device-config.js';
import { routesBeforeSave } from './saved-lockout.js';
import { DEFAULT_HEALTH_DROP_PERCENT, deviceHealth } from './device-health.js';
import { deviceRetentionRepository } from './device-retention.repository.js';
import { readMonitor } from './device-monitor.js';
import { routeProblems } from './routes-check.js';
import {
  deviceListSpec,
  devicesRepository as repo,
  type DeviceRow,
  type DeviceSummaryRow,
  type NamedDevice,
} from './devices.repository.js';

const LOG_LINES_SHOWN = 500;

/** What a record keeps of a device: its settings, not what its agent reports. */
const auditedDevice = (row: DeviceRow) => ({
  name: row.name,
  description: row.description,
  address: row.address,
  city: row.city,
  licensed: row.licensed,
  profile_id: row.profile_id,
  policy_id: row.policy_id,
  firewall_id: row.firewall_id,
});

/** A record of a device change by a console user. */
const deviceEntry = (
  principal: Principal,
  device: { id: number; name: string },
  change: Pick<AuditEntry, 'action' | 'before' | 'after'>,
): AuditEntry => ({
  orgId: principal.orgId,
  actor: userActor(principal),
  object: { type: 'device', id: device.id, name: device.name },
  ...change,
});

/** A device's routes/NAT version: its network settings (what a rollback restores). */
export const networkVersion = (
  orgId: number,
  actor: string,
  id: number,
  network: DeviceNetwork,
) => ({
  orgId,
  id,
  definition: { network },
  summary: {
    route_count: network.routes.length,
    nat_count: network.source_nat.length + network.port_forwards.length,
  },
  actor,
});

/**
 * A device as the console sees it; `agentVersion` is the one this server serves,
 * `healthDropPercent` HEALTH_DROP_PERCENT.
 */
export function presentDevice(
  row: DeviceRow,
  agentVersion: string | null,
  healthDropPercent = DEFAULT_HEALTH_DROP_PERCENT,
): Device {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    address: row.address,
    city: row.city,
    licensed: row.licensed,
    profile_id: row.profile_id,
    policy_id: row.policy_id,
    firewall_id: row.firewall_id,
    online: row.online,
    last_seen: row.last_seen?.toISOString() ?? null,
    update_pending:
      row.flush_requested ||
      row.config_version_local !== row.config_version_remote ||
      row.policy_version_local !== row.policy_version_remote,
    config_version_local: row.config_version_local,
    config_version_remote: row.config_version_remote,
    policy_version_local: row.policy_version_local,
    policy_version_remote: row.policy_version_remote,
    last_error: row.last_error,
    state: row.state,
    agent_version: row.agent_version,
    metrics: row.metrics,
    sensor: row.sensor,
    health: deviceHealth(row.sensor, healthDropPercent),
    policy_rules: row.policy_rules,
    firewall: row.firewall_drift,
    alerts_rejected: row.alerts_rejected,
    agent_outdated: isOutdated(row.agent_version, agentVersion),
    upgrade:
      row.upgrade_version === null
        ? null
        : {
            version: row.upgrade_version,
            requested_at: (row.upgrade_requested_at ?? row.updated_at).toISOString(),
          },
    updated_at: row.updated_at.toISOString(),
  };
}

const figure = (count: number, devices: NamedDevice[]) => ({
  count,
  devices: devices.map(([id, name]) => ({ id, name })),
});

/** The dashboard's device figures as the console sees them. */
export const presentSummary = (row: DeviceSummaryRow): DeviceSummary => ({
  total: row.total,
  problems: {
    offline: figure(row.offline, row.offline_devices),
    pending: figure(row.pending, row.pending_devices),
    errors: figure(row.errors, row.errors_devices),
    unhealthy: figure(row.unhealthy, row.unhealthy_devices),
    firewall_drift: figure(row.drifted, row.drifted_devices),
  },
});

/** For other modules: the organization's device; undefined when it has none such. */
/** Retention's batched deletes of the devices' telemetry (plugins/retention.ts). */
export const deviceRetention = deviceRetentionRepository;

export const countDevicesUsingPolicy = (db: Queryable, policyId: number) =>
  repo.countUsingPolicy(db, policyId);

export const deviceIdsUsingPolicy = (db: Queryable, policyId: number) =>
  repo.idsUsingPolicy(db, policyId);

export const deviceIdsUsingProfile = (db: Queryable, profileId: number) =>
  repo.idsUsingProfile(db, profileId);

export const deviceIdsUsingRuleset = (db: Queryable, rulesetId: number) =>
  repo.idsUsingRuleset(db, rulesetId);

/** The organization's devices that run the policy, by id, with their profiles' ids. */
export const devicesRunningPolicy = (db: Queryable, orgId: number, policyId: number) =>
  repo.runningPolicy(db, orgId, policyId);

/** The profile of the first device (by id) that runs the ruleset and has one. */
export const firstProfileUsingRuleset = (db: Queryable, rulesetId: number) =>
  repo.firstProfileUsingRuleset(db, rulesetId);

export const findDemoSensorIds = (db: Queryable, orgId: number) =>
  repo.findDemoSensorIds(db, orgId);

export const findDevice = (db: Queryable, orgId: number, id: number) =>
  repo.idAndName(db, orgId, id);

/** findDevice, its row locked until the caller's transaction ends. */
export const lockDevice = (tx: Queryable, orgId: number, id: number) =>
  repo.idAndName(tx, orgId, id, { lock: true });

/** A new agent password: the agent tokens the old one opened stop working at once. */
export async function replaceDevicePassword(
  tx: Queryable,
  device: { orgId: number; id: number; passwordHash: string },
): Promise<void> {
  await repo.update(tx, device.id, { passwordHash: device.passwordHash });
  // Heartbeats check token versions against what they last read: tell them it changed.
  await notifyDevices(tx, device.orgId, [device.id]);
}

export function createDevicesService(
  db: Database,
  /** The agent version this server serves (its release manifest's), null without a build. */
  agentVersion: () => Promise<string | null>,
  /** PUBLIC_URL: the server for devices whose agent reports no endpoint of it. */
  publicUrl = 'http://localhost',
  /** HEALTH_DROP_PERCENT: above this drop share a sensor is degraded. */
  healthDropPercent = DEFAULT_HEALTH_DROP_PERCENT,
) {
  const listSpec = deviceListSpec(healthDropPercent);
  const present = async (row: DeviceRow) =>
    presentDevice(row, await agentVersion(), healthDropPercent);

  async function load(tx: Queryable, orgId: number, id: number): Promise<DeviceRow> {
    const row = await repo.find(tx, orgId, id);
    if (!row) throw notFound('Device');
    return row;
  }

  /** Profile, policy and ruleset must be the organization's own. */
  async function assertAssignable(
    tx: Queryable,
    orgId: number,
    body: { profile_id?: number | null; policy_id?: number | null; firewall_id?: number | null },
  ) {
    const checks = [
      [isOwnProfile, body.profile_id, 'Profile'],
      [isOwnPolicy, body.policy_id, 'Policy'],
      [isOwnRuleset, body.firewall_id, 'Ruleset'],
    ] as const;
    for (const [isOwn, id, what] of checks) {
      if (id && !(await isOwn(tx, orgId, id))) throw notFound(what);
    }
  }

  const named = <T>(write: () => Promise<T>, name: string | undefined) =>
    orConflict(write, `A device named '${name ?? ''}' already exists`);

  async function saveNetwork(
    principal: Principal,
    id: number,
    network: DeviceNetwork,
    options: { restoredFrom?: number; overrideLockout?: boolean } = {},
  ) {
    const { restoredFrom } = options;
    assertRole(principal, ...EDITOR_ROLES);
    const problems = routeProblems(network);
    if (problems.length > 0)
      throw new AppError('validation_failed', problems[0]?.msg ?? 'Invalid routes', problems);
    const lockout = await lockoutGuard(principal, options.overrideLockout, publicUrl);
    return db.transaction(async (tx) => {
      const device = await load(tx, principal.orgId, id);
      const before = await repo.network(tx, id);
      // Moving the path to the server onto another route may cut the device off.
      checkNoRouteLockout(tx, lockout, {
        id,
        name: device.name,
        before: await routesBeforeSave(
          tx,
          principal.orgId,
          id,
          await deployedRoutesOf(tx, id),
          before,
        ),
        after: network,
        endpoint: await repo.serverEndpoint(tx, id),
      });
      await repo.setNetwork(tx, id, network);
      const rendered = await renderDeviceConfig(tx, id);
      if (rendered.problems.length > 0) {
        const first = rendered.problems[0];
        throw new AppError(
          'validation_failed',
          `${first?.field ?? 'network'}: ${first?.message ?? 'cannot render'}`,
          rendered.problems.map((p) => ({ field: p.field, msg: p.message })),
        );
      }
      await refreshDeviceConfigs(tx, principal.orgId, [id]);
      const stored = await repo.network(tx, id);
      // A new version when the routes or NAT changed (a no-op save adds none).
      const [recorded] = await recordVersions(tx, 'device_network', [
        {
          ...networkVersion(principal.orgId, principal.email, id, stored),
          ...(restoredFrom === undefined ? {} : { cause: 'rollback' as const, restoredFrom }),
        },
      ]);
      const object = { type: 'device_network', id, name: device.name } as const;
      await recordAudit(
        tx,
        {
          orgId: principal.orgId,
          actor: userActor(principal),
          object,
          ...(restoredFrom === undefined
            ? { action: 'update', ...changedFields(before, stored) }
            : {
                action: 'rollback',
                before,
                after: {
                  restored_from: restoredFrom,
                  version: recorded?.version ?? null,
                  ...stored,
                },
              }),
        },
        ...lockoutOverrideRecords(lockout, principal, object),
      );
      return { stored, recorded };
    });
  }

  return {
    async list(principal: Principal, query: ListQuery): Promise<ListResponse<Device>> {
      const { rows, total } = await repo.list(db, buildListSql(query, listSpec, [principal.orgId]));
      const current = await agentVersion();
      return {
        data: rows.map((row) => presentDevice(row, current, healthDropPercent)),
        recordsTotal: total,
      };
    },

    /** The Home dashboard's figures: any signed-in user, their organization's devices. */
    summary: async (principal: Principal, query: DeviceSummaryQuery): Promise<DeviceSummary> =>
      presentSummary(
        await repo.summary(db, principal.orgId, { dropPercent: healthDropPercent, ...query }),
      ),

    get: async (principal: Principal, id: number) => present(await load(db, principal.orgId, id)),

    async create(principal: Principal, body: z.output<typeof DeviceWrite>): Promise<Device> {
      assertRole(principal, ...EDITOR_ROLES);
      const passwordHash = await hashSecret(body.password);
      return db.transaction(async (tx) => {
        await assertAssignable(tx, principal.orgId, body);
        const id = await named(
          () =>
            repo.insert(tx, principal.orgId, {
              name: body.name,
              description: body.description,
              address: body.address,
              city: body.city,
              licensed: body.licensed,
              passwordHash,
              profileId: body.profile_id,
              policyId: body.policy_id,
              firewallId: body.firewall_id,
            }),
          body.name,
        );
        await refreshDeviceConfigs(tx, principal.orgId, [id]);
        await recordVersions(tx, 'device_network', [
          networkVersion(principal.orgId, principal.email, id, await repo.network(tx, id)),
        ]);
        // Staged organizations: later saves wait for a deploy, as for every other device.
        await pinNewDevice(tx, principal.orgId, id);
        const row = await load(tx, principal.orgId, id);
        await recordAudit(
          tx,
          deviceEntry(principal, row, { action: 'create', after: auditedDevice(row) }),
        );
        return present(row);
      });
    },

    async update(
      principal: Principal,
      id: number,
      body: z.output<typeof DeviceUpdate>,
    ): Promise<Device> {
      assertRole(principal, ...EDITOR_ROLES);
      const passwordHash =
        body.password === undefined ? undefined : await hashSecret(body.password);
      // Assigning a ruleset or a profile (whose variables its rules use) is a firewall change:
      // it must not cut the device off.
      const lockout =
        body.firewall_id === undefined && body.profile_id === undefined
          ? undefined
          : await lockoutGuard(principal, body.override_lockout, publicUrl);
      return db.transaction(async (tx) => {
        const before = await load(tx, principal.orgId, id);
        await assertAssignable(tx, principal.orgId, body);
        await named(
          () =>
            repo.update(tx, id, {
              name: body.name,
              description: body.description,
              address: body.address,
              city: body.city,
              licensed: body.licensed,
              passwordHash,
              profileId: body.profile_id,
              policyId: body.policy_id,
              firewallId: body.firewall_id,
            }),
          body.name,
        );
        await refreshDeviceConfigs(tx, principal.orgId, [id], lockout);
        const after = await load(tx, principal.orgId, id);
        const diff = changedFields(auditedDevice(before), auditedDevice(after));
        // A new ruleset, profile or policy is an assignment; the agent password never shows.
        const assigned = ['profile_id', 'policy_id', 'firewall_id'].some((k) => k in diff.after);
        await recordAudit(
          tx,
          deviceEntry(principal, after, {
            action: assigned ? 'assign' : 'update',
            before: diff.before,
            after: passwordHash ? { ...diff.after, password: 'changed' } : diff.after,
          }),
          ...lockoutOverrideRecords(lockout, principal, {
            type: 'device',
            id,
            name: after.name,
          }),
        );
        return present(after);
      });
    },

    async remove(principal: Principal, id: number): Promise<void> {
      assertRole(principal, ...EDITOR_ROLES);
      await db.transaction(async (tx) => {
        const row = await load(tx, principal.orgId, id);
        await repo.delete(tx, id);
        await notifyDevices(tx, principal.orgId, [id]);
        await recordAudit(
          tx,
          deviceEntry(principal, row, { action: 'delete', before: auditedDevice(row) }),
        );
      });
    },

    /**
     * POST /devices/upgrade: the devices named (or every outdated one) are asked, at their next
     * heartbeat, to install the agent version this server serves. A device already on it is not.
     */
    async requestUpgrade(
      principal: Principal,
      body: DeviceUpgradeRequest,
    ): Promise<DeviceUpgradeResult> {
      assertRole(principal, 'Administrator');
      const version = await agentVersion();
      if (version === null) {
        throw new AppError(
          'agent_release_missing',
          'This server carries no agent build: run npm run build',
        );
      }
      return db.transaction(async (tx) => {
        const named = 'ids' in body ? [...new Set(body.ids)] : undefined;
        const devices = await repo.agentVersions(tx, principal.orgId, named);
        const missing = named?.find((id) => !devices.some((device) => device.id === id));
        if (missing !== undefined) throw notFound(`Device ${missing}`);
        const chosen = devices.filter((device) =>
          named ? device.agent_version !== version : isOutdated(device.agent_version, version),
        );
        const requested = await repo.requestUpgrade(
          tx,
          chosen.map((device) => device.id),
          version,
        );
        // Heartbeats answered from remembered rows must hear of the request: they forget them.
        if (requested > 0) await notifyDevices(tx, principal.orgId);
        // One record per request, naming the devices asked (not one per device).
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'upgrade',
          object: { type: 'device', id: null, name: null },
          after: { version, requested, device_ids: chosen.map((device) => device.id) },
        });
        return { requested, version };
      });
    },

    /** GET /deviceupdate/{id}: the device re-pulls and re-applies everything. */
    async flush(principal: Principal, id: number): Promise<void> {
      assertRole(principal, ...EDITOR_ROLES);
      await db.transaction(async (tx) => {
        const row = await load(tx, principal.orgId, id);
        await repo.requestFlush(tx, id);
        await notifyDevices(tx, principal.orgId, [id]);
        await recordAudit(tx, deviceEntry(principal, row, { action: 'flush' }));
      });
    },

    async network(principal: Principal, id: number): Promise<DeviceNetwork> {
      await load(db, principal.orgId, id);
      return repo.network(db, id);
    },

    /** Routes and NAT of the device (L3 mode); refused when they cannot render. */
    async setNetwork(
      principal: Principal,
      id: number,
      body: DeviceNetworkWrite,
    ): Promise<DeviceNetwork> {
      const { override_lockout: overrideLockout, ...network } = body;
      return (await saveNetwork(principal, id, network, { overrideLockout })).stored;
    },

    /** Restores a version's routes and NAT as the device's next network version, audited. */
    async rollbackNetwork(
      principal: Principal,
      id: number,
      version: number,
      overrideLockout = false,
    ): Promise<RollbackResponse> {
      assertRole(principal, ...EDITOR_ROLES);
      await load(db, principal.orgId, id);
      const target = await versionAt(db, 'device_network', principal.orgId, id, version);
      if (!target) throw notFound(`Version ${version}`);
      const { network } = target.definition as { network: DeviceNetwork };
      const { recorded } = await saveNetwork(principal, id, network, {
        restoredFrom: version,
        overrideLockout,
      });
      const latest = recorded ?? (await latestVersion(db, 'device_network', principal.orgId, id));
      return rollbackAnswer(version, recorded?.version, latest?.version, 1, 'routes and NAT');
    },

    /** Checks the device is the caller's organization's (a network reaches that one device). */
    async versionContext(principal: Principal, id: number) {
      await load(db, principal.orgId, id);
      return { deviceCount: 1 };
    },

    /** The exact nftables script and route commands the device will receive. */
    async firewallPreview(principal: Principal, id: number) {
      const device = await load(db, principal.orgId, id);
      const rendered = await renderDeviceConfig(db, id);
      return {
        config_version: device.config_version_remote,
        nftables: rendered.nftables,
        routes: rendered.routes,
        problems: rendered.problems,
      };
    },

    async monitor(principal: Principal, id: number, since: Date, limit: number) {
      await load(db, principal.orgId, id);
      return readMonitor(db, { deviceId: id, since, limit });
    },

    async log(principal: Principal, id: number) {
      await load(db, principal.orgId, id);
      const rows = await repo.logs(db, id, LOG_LINES_SHOWN);
      return { device_id: id, data: rows.map((r) => ({ ...r, time: r.time.toISOString() })) };
    },

    async alerts(principal: Principal, id: number) {
      await load(db, principal.orgId, id);
      const rows = await latestDeviceAlerts(db, id, DEVICE_ALERTS_SHOWN);
      return {
        device_id: id,
        data: rows.map(({ time_us, ...r }) => ({
          ...r,
          device_id: id,
          time: isoFromEpochMicros(time_us),
        })),
      };
    },
  };
}
