import type {
  DeviceProfile,
  DeviceProfileUpdate,
  DeviceProfileWrite,
  ListQuery,
  ListResponse,
} from '@palisade/contract';
import type { z } from 'zod';
import type { Database, Queryable } from '../../db/client.js';
import { orConflict } from '../../db/errors.js';
import { buildListSql } from '../../db/list-query.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { assertRole, EDITOR_ROLES, type Principal } from '../../plugins/auth.js';
import { refreshDeviceConfigs } from '../devices/device-config.js';
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

export function createProfilesService(db: Database) {
  async function load(tx: Queryable, orgId: number, id: number) {
    const row = await repo.find(tx, orgId, id);
    if (!row) throw notFound('Profile');
    return row;
  }
  const named = <T>(write: () => Promise<T>, name: string | undefined) =>
    orConflict(write, `A profile named '${name ?? ''}' already exists`);

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
        return present(await load(tx, principal.orgId, id));
      });
    },

    async update(
      principal: Principal,
      id: number,
      body: z.output<typeof DeviceProfileUpdate>,
    ): Promise<DeviceProfile> {
      assertRole(principal, ...EDITOR_ROLES);
      assertValid(body.variables);
      return db.transaction(async (tx) => {
        await load(tx, principal.orgId, id);
        await named(() => repo.update(tx, id, body), body.name);
        // Only the devices with this profile run its variables.
        const devices = await repo.deviceIdsUsing(tx, id);
        if (devices.length > 0) await refreshDeviceConfigs(tx, principal.orgId, devices);
        return present(await load(tx, principal.orgId, id));
      });
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
      });
    },
  };
}
