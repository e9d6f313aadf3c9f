import type {
  FirewallRuleset,
  FirewallRulesetWrite,
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
import { checkRuleset } from './firewall-render.js';
import { lockoutGuard } from './lockout.js';
import {
  RULESET_LIST_SPEC,
  firewallRepository as repo,
  type RulesetRow,
} from './firewall.repository.js';

const present = (row: RulesetRow): FirewallRuleset => ({
  id: row.id,
  name: row.name,
  description: row.description,
  policies: row.policies,
  rules: row.rules,
  device_count: row.device_count,
  updated_at: row.updated_at.toISOString(),
});

export function createFirewallService(
  db: Database,
  /** PUBLIC_URL: the server for devices whose agent reports no endpoint of it. */
  publicUrl: string,
) {
  async function load(tx: Queryable, orgId: number, id: number) {
    const row = await repo.find(tx, orgId, id);
    if (!row) throw notFound('Ruleset');
    return row;
  }
  const named = <T>(write: () => Promise<T>, name: string) =>
    orConflict(write, `A ruleset named '${name}' already exists`);

  return {
    async list(principal: Principal, query: ListQuery): Promise<ListResponse<FirewallRuleset>> {
      const { rows, total } = await repo.list(
        db,
        buildListSql(query, RULESET_LIST_SPEC, [principal.orgId]),
      );
      return { data: rows.map(present), recordsTotal: total };
    },

    get: async (principal: Principal, id: number) => present(await load(db, principal.orgId, id)),

    async create(
      principal: Principal,
      body: z.output<typeof FirewallRulesetWrite>,
    ): Promise<FirewallRuleset> {
      assertRole(principal, ...EDITOR_ROLES);
      checkRuleset(body.rules);
      return db.transaction(async (tx) => {
        const id = await named(() => repo.insert(tx, principal.orgId, body), body.name);
        return present(await load(tx, principal.orgId, id));
      });
    },

    /** PUT replaces the whole ruleset (its rules in their new order). */
    async update(
      principal: Principal,
      id: number,
      body: z.output<typeof FirewallRulesetWrite>,
    ): Promise<FirewallRuleset> {
      assertRole(principal, ...EDITOR_ROLES);
      checkRuleset(body.rules);
      const lockout = await lockoutGuard(principal, body.override_lockout, publicUrl);
      return db.transaction(async (tx) => {
        await load(tx, principal.orgId, id);
        await named(() => repo.update(tx, id, body), body.name);
        const devices = await repo.deviceIdsUsing(tx, id);
        if (devices.length > 0) await refreshDeviceConfigs(tx, principal.orgId, devices, lockout);
        return present(await load(tx, principal.orgId, id));
      });
    },

    async remove(principal: Principal, id: number): Promise<void> {
      assertRole(principal, ...EDITOR_ROLES);
      await db.transaction(async (tx) => {
        const row = await load(tx, principal.orgId, id);
        if (row.device_count > 0)
          throw new AppError(
            'conflict',
            `Ruleset '${row.name}' is assigned to ${row.device_count} device(s)`,
          );
        await repo.delete(tx, id);
      });
    },
  };
}
