import type {
  ChainPolicies,
  ExpiringItem,
  FirewallRule,
  FirewallRuleset,
  RollbackResponse,
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
import { changedFields, recordAudit, userActor } from '../audit/audit.service.js';
import { refreshDeviceConfigs } from '../devices/device-config.js';
import { deviceIdsUsingRuleset, firstProfileUsingRuleset } from '../devices/devices.service.js';
import { profileVariables } from '../profiles/profiles.service.js';
import {
  latestVersion,
  recordVersions,
  rollbackAnswer,
  versionAt,
} from '../versions/versions.service.js';
import { checkRuleset } from './firewall-render.js';
import { lockoutGuard, lockoutOverrideRecords } from './lockout.js';
import {
  RULESET_LIST_SPEC,
  firewallRepository as repo,
  type RulesetRow,
} from './firewall.repository.js';

/** What a record keeps of a ruleset: its settings and rules, not its stamp or usage count. */
const audited = ({ updated_at: _stamp, device_count: _count, ...ruleset }: FirewallRuleset) =>
  ruleset;

const present = (row: RulesetRow): FirewallRuleset => ({
  id: row.id,
  name: row.name,
  description: row.description,
  policies: row.policies,
  rules: row.rules,
  device_count: row.device_count,
  updated_at: row.updated_at.toISOString(),
});

/** A ruleset's version: its chain policies and rules in order (what a rollback restores). */
export const rulesetVersion = (
  orgId: number,
  actor: string,
  row: Pick<RulesetRow, 'id' | 'rules' | 'policies'>,
) => ({
  orgId,
  id: row.id,
  definition: { policies: row.policies, rules: row.rules },
  summary: { rule_count: row.rules.length },
  actor,
});

const due = (rule: FirewallRule, by: Date) =>
  rule.expires_at != null && Date.parse(rule.expires_at) <= by.getTime();

function expiringRule(row: RulesetRow, rule: FirewallRule, index: number): ExpiringItem {
  const ports = rule.destination_ports === '' ? '' : ` ${rule.destination_ports}`;
  const comment = rule.comment === '' ? '' : ` (${rule.comment})`;
  return {
    kind: 'firewall_rule',
    object_type: 'firewall_ruleset',
    object_id: row.id,
    object_name: row.name,
    label: `#${index + 1} ${rule.chain} ${rule.action} ${rule.protocol}${ports}${comment}`,
    expires_at: new Date(rule.expires_at ?? 0).toISOString(),
    reason: rule.reason || null,
  };
}

/** The organization's firewall rules that expire by `until` (or are past it). */
export async function expiringFirewallRules(
  db: Queryable,
  orgId: number,
  until: Date,
): Promise<ExpiringItem[]> {
  const rows = await repo.withRuleExpiries(db, orgId);
  return rows.flatMap((row) =>
    row.rules.flatMap((rule, index) => (due(rule, until) ? [expiringRule(row, rule, index)] : [])),
  );
}

export function orgsWithExpiredFirewallRules(db: Queryable, now: Date): Promise<number[]> {
  return repo.orgsWithExpiredRules(db, now);
}

/**
 * Removes the organization's firewall rules due by `now` from their rulesets, and sends the
 * devices using them their new script as an edit does. No lock-out check: the server keeps the
 * end date it was given (the agent undoes a change that cuts it off). Answers what went.
 */
export async function removeExpiredFirewallRules(
  tx: Queryable,
  orgId: number,
  now: Date,
): Promise<ExpiringItem[]> {
  const removed: ExpiringItem[] = [];
  for (const row of await repo.withRuleExpiries(tx, orgId, true)) {
    const gone = row.rules.flatMap((rule, index) =>
      due(rule, now) ? [expiringRule(row, rule, index)] : [],
    );
    if (gone.length === 0) continue;
    const rules = row.rules.filter((rule) => !due(rule, now));
    await repo.update(tx, row.id, { ...row, rules });
    const devices = await deviceIdsUsingRuleset(tx, row.id);
    if (devices.length > 0) await refreshDeviceConfigs(tx, orgId, devices);
    await recordVersions(tx, 'firewall_ruleset', [
      rulesetVersion(orgId, 'expiry', { ...row, rules }),
    ]);
    removed.push(...gone);
  }
  return removed;
}

/** For other modules: whether the ruleset is the organization's (a device may use it). */
export const isOwnRuleset = (db: Queryable, orgId: number, id: number) =>
  repo.isOwned(db, orgId, id);

/** The profile variables of the first device using the ruleset (to render it as one). */
async function variablesOfADevice(db: Queryable, orgId: number, rulesetId: number) {
  const profile = await firstProfileUsingRuleset(db, rulesetId);
  if (profile === undefined) return undefined;
  return (await profileVariables(db, orgId, [profile])).get(profile);
}

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
  /** A new version when the rules or chain policies changed (a rename is not one). */
  const recordVersion = (
    tx: Queryable,
    principal: Principal,
    row: RulesetRow,
    restoredFrom?: number,
  ) =>
    recordVersions(tx, 'firewall_ruleset', [
      {
        ...rulesetVersion(principal.orgId, principal.email, row),
        ...(restoredFrom === undefined ? {} : { cause: 'rollback' as const, restoredFrom }),
      },
    ]);

  /** PUT and rollback: the whole ruleset replaced, devices re-rendered with the lock-out check. */
  async function save(
    principal: Principal,
    id: number,
    body: z.output<typeof FirewallRulesetWrite>,
    restoredFrom?: number,
  ) {
    assertRole(principal, ...EDITOR_ROLES);
    checkRuleset(body.rules);
    const lockout = await lockoutGuard(principal, body.override_lockout, publicUrl);
    return db.transaction(async (tx) => {
      const before = await load(tx, principal.orgId, id);
      await named(() => repo.update(tx, id, body), body.name);
      const devices = await deviceIdsUsingRuleset(tx, id);
      if (devices.length > 0) await refreshDeviceConfigs(tx, principal.orgId, devices, lockout);
      const row = await load(tx, principal.orgId, id);
      const [recorded] = await recordVersion(tx, principal, row, restoredFrom);
      const object = { type: 'firewall_ruleset' as const, id, name: row.name };
      const actor = userActor(principal);
      await recordAudit(
        tx,
        restoredFrom === undefined
          ? {
              orgId: principal.orgId,
              actor,
              action: 'update',
              object,
              ...changedFields(audited(present(before)), audited(present(row))),
            }
          : {
              orgId: principal.orgId,
              actor,
              action: 'rollback',
              object,
              before: { rules: before.rules.length, policies: before.policies },
              after: {
                restored_from: restoredFrom,
                version: recorded?.version ?? null,
                rules: row.rules.length,
                policies: row.policies,
              },
            },
        ...lockoutOverrideRecords(lockout, principal, object),
      );
      return { row, recorded };
    });
  }

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
        const row = await load(tx, principal.orgId, id);
        await recordVersion(tx, principal, row);
        const created = present(row);
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'create',
          object: { type: 'firewall_ruleset', id, name: created.name },
          after: audited(created),
        });
        return created;
      });
    },

    /** PUT replaces the whole ruleset (its rules in their new order). */
    async update(
      principal: Principal,
      id: number,
      body: z.output<typeof FirewallRulesetWrite>,
    ): Promise<FirewallRuleset> {
      return present((await save(principal, id, body)).row);
    },

    /**
     * Restores a version's rules and chain policies as the ruleset's next version: a firewall
     * change like any other (the lock-out check included), audited.
     */
    async rollback(
      principal: Principal,
      id: number,
      version: number,
      overrideLockout: boolean,
    ): Promise<RollbackResponse> {
      assertRole(principal, ...EDITOR_ROLES);
      const current = await load(db, principal.orgId, id);
      const target = await versionAt(db, 'firewall_ruleset', principal.orgId, id, version);
      if (!target) throw notFound(`Version ${version}`);
      const definition = target.definition as { policies: ChainPolicies; rules: FirewallRule[] };
      const { row, recorded } = await save(
        principal,
        id,
        {
          name: current.name,
          description: current.description,
          policies: definition.policies,
          rules: definition.rules,
          override_lockout: overrideLockout,
        },
        version,
      );
      const latest = recorded ?? (await latestVersion(db, 'firewall_ruleset', principal.orgId, id));
      return rollbackAnswer(
        version,
        recorded?.version,
        latest?.version,
        row.device_count,
        'ruleset',
      );
    },

    /** Checks the ruleset is the caller's organization's; devices using it; their variables. */
    async versionContext(principal: Principal, id: number) {
      const row = await load(db, principal.orgId, id);
      const variables = await variablesOfADevice(db, principal.orgId, id);
      return { deviceCount: row.device_count, ...(variables ? { variables } : {}) };
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
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'delete',
          object: { type: 'firewall_ruleset', id, name: row.name },
          before: audited(present(row)),
        });
      });
    },
  };
}
