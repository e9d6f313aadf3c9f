import type {
  ListQuery,
  ListResponse,
  RuleGroup,
  RuleGroupCreate,
  RuleGroupUpdate,
} from '@palisade/contract';
import type { z } from 'zod';
import type { Database, Queryable } from '../../db/client.js';
import { orConflict } from '../../db/errors.js';
import { buildListSql } from '../../db/list-query.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { assertRole, EDITOR_ROLES, type Principal } from '../../plugins/auth.js';
import { changedFields, recordAudit, userActor } from '../audit/audit.service.js';
import { policyNamesUsingGroup, refreshPoliciesHolding } from '../policies/policies.service.js';
import { countOwnRules } from '../rules/rules.service.js';
import { GROUP_LIST_SPEC, groupsRepository as repo, type GroupRow } from './groups.repository.js';

const present = (row: GroupRow): RuleGroup => ({
  id: row.id,
  name: row.name,
  description: row.description,
  kind: row.kind,
  source_id: row.source_id,
  rule_count: row.rule_count,
  enabled_count: row.enabled_count,
  updated_at: row.updated_at.toISOString(),
});

/** Puts a rule in groups, every one of which must be the organization's (else 404). */
export async function addRuleToOwnGroups(
  tx: Queryable,
  { orgId, groupIds, ruleId }: { orgId: number; groupIds: number[]; ruleId: number },
): Promise<void> {
  const owned = await repo.findOwnedIds(tx, orgId, groupIds);
  if (owned.length !== new Set(groupIds).size) throw notFound('Group');
  await repo.addRuleToGroups(tx, groupIds, ruleId);
}

/** The group that holds the rules written in the console, created on first use. */
export function ensureCustomGroup(tx: Queryable, orgId: number, name: string): Promise<number> {
  return repo.upsertCustom(tx, orgId, name);
}

/** How many of ids are groups of the organization. */
export const countOwnGroups = (db: Queryable, orgId: number, ids: number[]) =>
  repo.countOwned(db, orgId, ids);

/** Those of the ids that are groups of the organization, sorted. */
export const existingGroupIds = async (db: Queryable, orgId: number, ids: number[]) =>
  ids.length === 0 ? [] : (await repo.findOwnedIds(db, orgId, ids)).map((row) => row.id);

/** The organization's groups of these names (any case), by lower-case name. */
export const groupIdsByName = (db: Queryable, orgId: number, names: string[]) =>
  repo.idsByName(db, orgId, names);

/** The organization's group of rules written in the console, if there is one yet. */
export const findCustomGroupId = (db: Queryable, orgId: number) => repo.findCustomId(db, orgId);

export function createGroupsService(db: Database) {
  async function load(tx: Queryable, orgId: number, id: number): Promise<GroupRow> {
    const row = await repo.find(tx, orgId, id);
    if (!row) throw notFound('Group');
    return row;
  }

  /** Every rule id must be one of the organization's rules. */
  async function assertOwnRules(tx: Queryable, orgId: number, ids: number[] | undefined) {
    if (!ids || ids.length === 0) return;
    const unique = [...new Set(ids)];
    if ((await countOwnRules(tx, orgId, unique)) !== unique.length) throw notFound('Rule');
  }

  const named = <T>(write: () => Promise<T>, name: string | undefined) =>
    orConflict(write, `A group named '${name ?? ''}' already exists`);

  return {
    async list(principal: Principal, query: ListQuery): Promise<ListResponse<RuleGroup>> {
      const { rows, total } = await repo.list(
        db,
        buildListSql(query, GROUP_LIST_SPEC, [principal.orgId]),
      );
      return { data: rows.map(present), recordsTotal: total };
    },

    async create(principal: Principal, body: z.output<typeof RuleGroupCreate>): Promise<RuleGroup> {
      assertRole(principal, ...EDITOR_ROLES);
      return db.transaction(async (tx) => {
        await assertOwnRules(tx, principal.orgId, body.rule_ids);
        const id = await named(
          () => repo.insert(tx, principal.orgId, body.name, body.description),
          body.name,
        );
        await repo.addMembers(tx, id, [...new Set(body.rule_ids)]);
        const created = present(await load(tx, principal.orgId, id));
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'create',
          object: { type: 'group', id, name: created.name },
          after: created,
        });
        return created;
      });
    },

    async update(
      principal: Principal,
      id: number,
      body: z.output<typeof RuleGroupUpdate>,
    ): Promise<RuleGroup> {
      assertRole(principal, ...EDITOR_ROLES);
      return db.transaction(async (tx) => {
        const current = await load(tx, principal.orgId, id);
        // A rule source finds its groups by name: renamed, the next update would start anew.
        if (
          current.source_id !== null &&
          body.name !== undefined &&
          body.name.toLowerCase() !== current.name.toLowerCase()
        ) {
          throw new AppError(
            'conflict',
            `Group ${current.name} is kept by a rule source: it keeps its name`,
          );
        }
        await assertOwnRules(tx, principal.orgId, [
          ...(body.rule_ids ?? []),
          ...(body.add_rule_ids ?? []),
        ]);
        await named(
          () => repo.update(tx, id, { name: body.name, description: body.description }),
          body.name,
        );
        if (body.rule_ids) await repo.setMembers(tx, id, [...new Set(body.rule_ids)]);
        await repo.addMembers(tx, id, [...new Set(body.add_rule_ids ?? [])]);
        await repo.removeMembers(tx, id, body.remove_rule_ids ?? []);
        // Only members change what a policy renders (not the group's name or description).
        const membersChanged =
          body.rule_ids !== undefined ||
          (body.add_rule_ids?.length ?? 0) > 0 ||
          (body.remove_rule_ids?.length ?? 0) > 0;
        if (membersChanged)
          await refreshPoliciesHolding(tx, principal.orgId, { groupIds: [id] }, principal.email);
        const updated = present(await load(tx, principal.orgId, id));
        const diff = changedFields(present(current), updated, ['updated_at']);
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'update',
          object: { type: 'group', id, name: updated.name },
          before: diff.before,
          // Member changes as counts: a group can hold a whole rule file.
          after: {
            ...diff.after,
            ...(body.rule_ids ? { rules_set: new Set(body.rule_ids).size } : {}),
            ...(body.add_rule_ids?.length ? { rules_added: body.add_rule_ids.length } : {}),
            ...(body.remove_rule_ids?.length ? { rules_removed: body.remove_rule_ids.length } : {}),
          },
        });
        return updated;
      });
    },

    async remove(principal: Principal, id: number): Promise<void> {
      assertRole(principal, ...EDITOR_ROLES);
      await db.transaction(async (tx) => {
        const group = await load(tx, principal.orgId, id);
        const usedBy = await policyNamesUsingGroup(tx, id);
        if (usedBy.length > 0) {
          throw new AppError(
            'conflict',
            `Group '${group.name}' is used by policy ${usedBy.map((name) => `'${name}'`).join(', ')}`,
          );
        }
        await repo.delete(tx, id);
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'delete',
          object: { type: 'group', id, name: group.name },
          before: present(group),
        });
      });
    },
  };
}
