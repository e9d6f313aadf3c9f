import type {
  DeviceProfile,
  DeviceProfileUpdate,
  DeviceProfileWrite,
  ListQuery,
  ListResponse,
  RollbackResponse,
} from '@palisade/contract';
import type { z } from 'zod';
import type { Database, Queryable } from '../../db/client.js';
import { orConflict } from '../../db/errors.js';
import { buildListSql } from '../../db/list-query.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { assertRole, EDITOR_ROLES, type Principal } from '../../plugins/auth.js';
import { changedFields, recordAudit, userActor } from '../audit/audit.service.js';
import { refreshDeviceConfigs } from '../devices/device-config.js';
import { deviceIdsUsingProfile } from '../devices/devices.service.js';
import { lockoutGuard, lockoutOverrideRecords } from '../firewall/lockout.js';
import {
  latestVersion,
  recordVersions,
  rollbackAnswer,
  versionAt,
} from '../versions/versions.service.js';
import { variableProblems } from './profile-variables.js';
import {
  PROFILE_LIST_SPEC,
  profilesRepository as repo,
  type ProfileRow,
} from './profiles.repository.js';

const present = (row: ProfileRow): DeviceProfile => ({
  id: row.id,
  name: row.name,
  description: row.description,
  variables: row.variables,
  device_count: row.device_count,
  updated_at: row.updated_at.toISOString(),
});

function assertValid(variables: Record<string, string> | undefined) {
  const problems = variableProblems(variables ?? {});
  if (problems.length > 0)
    throw new AppError('validation_failed', problems[0]?.msg ?? 'Invalid variables', problems);
}

/** A profile's version: its variables (what a rollback restores). */
export const profileVersion = (
  orgId: number,
  actor: string,
  row: Pick<ProfileRow, 'id' | 'variables'>,
) => ({
  orgId,
  id: row.id,
  definition: { variables: row.variables },
  summary: { variable_count: Object.keys(row.variables).length },
  actor,
});

/** For other modules: whether the profile is the organization's (a device may use it). */
export const isOwnProfile = (db: Queryable, orgId: number, id: number) =>
  repo.isOwned(db, orgId, id);

/** For other modules: the variables of the organization's profiles, by profile id. */
export async function profileVariables(
  db: Queryable,
  orgId: number,
  ids: number[],
): Promise<Map<number, Record<string, string>>> {
  if (ids.length === 0) return new Map();
  const rows = await repo.variables(db, orgId, ids);
  return new Map(rows.map((row) => [row.id, row.variables]));
}

export function createProfilesService(
  db: Database,
  /** PUBLIC_URL: the server for devices whose agent reports no endpoint of it. */
  publicUrl: string,
) {
  async function load(tx: Queryable, orgId: number, id: number) {
    const row = await repo.find(tx, orgId, id);
    if (!row) throw notFound('Profile');
    return row;
  }
  const named = <T>(write: () => Promise<T>, name: string | undefined) =>
    orConflict(write, `A profile named '${name ?? ''}' already exists`);

  /**
   * PUT and rollback: re-renders the devices using it, with the lock-out check (its variables
   * feed their firewall rules: a rule accepting $MGMT); a new version when variables changed.
   */
  async function save(
    principal: Principal,
    id: number,
    body: z.output<typeof DeviceProfileUpdate>,
    restoredFrom?: number,
  ) {
    assertRole(principal, ...EDITOR_ROLES);
    assertValid(body.variables);
    const lockout = await lockoutGuard(principal, body.override_lockout, publicUrl);
    return db.transaction(async (tx) => {
      const before = await load(tx, principal.orgId, id);
      await named(() => repo.update(tx, id, body), body.name);
      // Only the devices with this profile run its variables.
      const devices = await deviceIdsUsingProfile(tx, id);
      if (devices.length > 0) await refreshDeviceConfigs(tx, principal.orgId, devices, lockout);
      const row = await load(tx, principal.orgId, id);
      // A new version when the variables changed (a rename is not one).
      const [recorded] = await recordVersions(tx, 'profile', [
        {
          ...profileVersion(principal.orgId, principal.email, row),
          ...(restoredFrom === undefined ? {} : { cause: 'rollback' as const, restoredFrom }),
        },
      ]);
      const object = { type: 'profile' as const, id, name: row.name };
      await recordAudit(
        tx,
        restoredFrom === undefined
          ? {
              orgId: principal.orgId,
              actor: userActor(principal),
              action: 'update',
              object,
              ...changedFields(present(before), present(row), ['updated_at']),
            }
          : {
              orgId: principal.orgId,
              actor: userActor(principal),
              action: 'rollback',
              object,
              before: { variables: before.variables },
              after: {
                restored_from: restoredFrom,
                version: recorded?.version ?? null,
                variables: row.variables,
              },
            },
        ...lockoutOverrideRecords(lockout, principal, object),
      );
      return { row, recorded };
    });
  }

  return {
    async list(principal: Principal, query: ListQuery): Promise<ListResponse<DeviceProfile>> {
      const { rows, total } = await repo.list(
        db,
        buildListSql(query, PROFILE_LIST_SPEC, [principal.orgId]),
      );
      return { data: rows.map(present), recordsTotal: total };
    },

    async create(
      principal: Principal,
      body: z.output<typeof DeviceProfileWrite>,
    ): Promise<DeviceProfile> {
      assertRole(principal, ...EDITOR_ROLES);
      assertValid(body.variables);
      return db.transaction(async (tx) => {
        const id = await named(() => repo.insert(tx, principal.orgId, body), body.name);
        const row = await load(tx, principal.orgId, id);
        await recordVersions(tx, 'profile', [
          profileVersion(principal.orgId, principal.email, row),
        ]);
        const created = present(row);
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'create',
          object: { type: 'profile', id, name: created.name },
          after: created,
        });
        return created;
      });
    },

    async update(
      principal: Principal,
      id: number,
      body: z.output<typeof DeviceProfileUpdate>,
    ): Promise<DeviceProfile> {
      return present((await save(principal, id, body)).row);
    },

    /**
     * Restores a version's variables as the profile's next version: a change of the devices'
     * firewalls like a save (the lock-out check included), audited.
     */
    async rollback(
      principal: Principal,
      id: number,
      version: number,
      overrideLockout: boolean,
    ): Promise<RollbackResponse> {
      assertRole(principal, ...EDITOR_ROLES);
      await load(db, principal.orgId, id);
      const target = await versionAt(db, 'profile', principal.orgId, id, version);
      if (!target) throw notFound(`Version ${version}`);
      const { variables } = target.definition as { variables: Record<string, string> };
      const { row, recorded } = await save(
        principal,
        id,
        { variables, override_lockout: overrideLockout },
        version,
      );
      const latest = recorded ?? (await latestVersion(db, 'profile', principal.orgId, id));
      return rollbackAnswer(
        version,
        recorded?.version,
        latest?.version,
        row.device_count,
        'profile',
      );
    },

    /** Checks the profile is the caller's organization's; how many devices use it. */
    async versionContext(principal: Principal, id: number) {
      return { deviceCount: (await load(db, principal.orgId, id)).device_count };
    },

    async remove(principal: Principal, id: number): Promise<void> {
      assertRole(principal, ...EDITOR_ROLES);
      await db.transaction(async (tx) => {
        const row = await load(tx, principal.orgId, id);
        if (row.device_count > 0) {
          throw new AppError(
            'conflict',
            `Profile '${row.name}' is used by ${row.device_count} device(s)`,
          );
        }
        await repo.delete(tx, id);
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'delete',
          object: { type: 'profile', id, name: row.name },
          before: present(row),
        });
      });
    },
  };
}
