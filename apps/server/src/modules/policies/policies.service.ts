import {
  PolicyExport,
  type ExpiringItem,
  type ListQuery,
  type ListResponse,
  type Policy,
  type PolicyMatcher,
  type PolicyRender,
  type RollbackResponse,
  type PolicyUpdate,
  type PolicyWrite,
} from '@palisade/contract';
import { parseRulesFile } from '@palisade/rules';
import type { z } from 'zod';
import type { Database, Queryable } from '../../db/client.js';
import { orConflict } from '../../db/errors.js';
import { buildListSql } from '../../db/list-query.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { SLICE_MS, timeSlices } from '../../lib/time-slices.js';
import { assertRole, EDITOR_ROLES, type Principal } from '../../plugins/auth.js';
import { rulesDiff } from '../../lib/render-diff.js';
import { policyFiles, renderedContent, versionAt } from '../versions/versions.service.js';
import { notifyDevices } from '../../plugins/device-events.js';
import { changedFields, recordAudit, userActor } from '../audit/audit.service.js';
import { countDevicesUsingPolicy, deviceIdsUsingPolicy } from '../devices/devices.service.js';
import { countOwnGroups, existingGroupIds, groupIdsByName } from '../groups/groups.service.js';
import {
  countOwnRules,
  existingRuleIds,
  ruleIdsBySignature,
  ruleKeysOf,
} from '../rules/rules.service.js';
import { countOwnUsers } from '../users/users.service.js';
import { compileMatcher, modifyError, parseConfFile, regexError } from './policy-matchers.js';
import {
  policyContent,
  recordPolicyRenders,
  rerenderPolicies,
  type PolicyDefinition,
  renderedSha256,
} from './policy-refresh.js';
import { renderPolicy } from './policy-render.js';
import {
  POLICY_LIST_SPEC,
  policiesRepository as repo,
  type ExpiringRow,
  type PolicyParts,
  type PolicyRow,
} from './policies.repository.js';

type Changes = Partial<z.output<typeof PolicyWrite>>;

export interface UploadedPolicyFile {
  name: string;
  text: string;
}

/** Renders a policy as stored, without recording anything (what a sensor is sent). */
export async function renderPolicyById(tx: Queryable, id: number) {
  const parts = await repo.parts(tx, id);
  // Only what can render is read: a rule disabled in its file renders only when an enable
  // matcher or an enable/drop override turns it on, or when it mentions flowbits (it may write
  // one an enabled rule checks); metadata only when a matcher reads it.
  const enables = parts.matchers.some((m) => m.kind === 'enable');
  const enabledByOverride = parts.overrides
    .filter((o) => o.action === 'enable' || o.action === 'drop')
    .map((o) => o.rule_id);
  const rules = await repo.rulesOf(tx, id, {
    metadata: parts.matchers.some((m) => /^\s*metadata:/i.test(m.matcher)),
    flowbits: parts.resolveFlowbits,
    ...(enables ? {} : { enabledOr: enabledByOverride }),
  });
  return renderPolicy({
    rules,
    overrides: new Map(parts.overrides.map((o) => [o.rule_id, o.action])),
    matchers: parts.matchers,
    thresholds: parts.thresholds,
    resolveFlowbits: parts.resolveFlowbits,
  });
}

/** A rule a policy's current version runs, as its rendered rules file names it. */
export interface RunRule {
  gid: number;
  sid: number;
  msg: string | null;
}

// Parsed rules files by their SHA-256: the content never changes under one digest, and a few
// policies' files (megabytes each) are all an organization's analytics asks for.
const runRulesByDigest = new Map<string, RunRule[]>();
const RUN_RULES_KEPT = 8;

/**
 * The rules a policy's current version runs (its rendered file: overrides, matchers and
 * flowbits applied) and the devices it is assigned to; undefined when it is not the
 * organization's. For rule analytics (which enabled rules never fire).
 */
export async function rulesRunBy(
  db: Queryable,
  orgId: number,
  policyId: number,
): Promise<{ rules: RunRule[]; deviceIds: number[] } | undefined> {
  const policy = await repo.find(db, orgId, policyId);
  if (!policy) return undefined;
  const deviceIds = await deviceIdsUsingPolicy(db, policyId);
  const digest = policy.rendered_sha256;
  let rules = digest === '' ? [] : runRulesByDigest.get(digest);
  if (rules === undefined) {
    const content = await renderedContent(db, digest);
    rules = parseRulesFile(content === null ? '' : policyFiles(content).rules)
      .rules.filter((rule) => rule.enabled)
      .map((rule) => ({ gid: rule.gid, sid: rule.sid, msg: rule.msg }));
    if (runRulesByDigest.size >= RUN_RULES_KEPT) {
      const oldest = runRulesByDigest.keys().next().value;
      if (oldest !== undefined) runRulesByDigest.delete(oldest);
    }
    runRulesByDigest.set(digest, rules);
  }
  return { rules: rules ?? [], deviceIds };
}

/**
 * Renders a policy from the database and records its version (and, when it moved, the version
 * in the version store); shared by every writer. `actor` is who caused it.
 */
export async function renderStored(
  tx: Queryable,
  id: number,
  actor = 'server',
  rollback?: { restoredFrom: number },
) {
  const output = await renderPolicyById(tx, id);
  await recordPolicyRenders(
    tx,
    [
      {
        id,
        sha256: renderedSha256(output),
        ruleCount: output.ruleCount,
        body: policyContent(output),
      },
    ],
    actor,
    rollback,
  );
  return output;
}

/**
 * After a write to rules or group members: re-renders only the policies built on a touched group
 * or on a group holding a touched rule (a rule's text changed, or a group's members did), in a
 * constant number of statements however many policies the organization has. Devices hear of it
 * when a version moved. Answers how many policies got a new version.
 */
/** Names of the policies built on the group. */
/** For other modules: whether the policy is the organization's (a device may run it). */
export const isOwnPolicy = (db: Queryable, orgId: number, id: number) =>
  repo.isOwned(db, orgId, id);

export const policyNamesUsingGroup = (db: Queryable, groupId: number) =>
  repo.namesUsingGroup(db, groupId);

export async function refreshPoliciesHolding(
  tx: Queryable,
  orgId: number,
  touched: { groupIds?: number[]; ruleIds?: number[] },
  /** Who caused it (a user's e-mail, a job's name), recorded with each new version. */
  actor = 'server',
): Promise<number> {
  const ids = await repo.idsHolding(tx, orgId, {
    groupIds: touched.groupIds ?? [],
    ruleIds: touched.ruleIds ?? [],
  });
  const moved = await rerenderPolicies(tx, ids, { actor });
  if (moved.length > 0) await notifyDevices(tx, orgId);
  return moved.length;
}

const VERSIONS_MIGRATION = '20261127020000_versions';

function expiringItem(row: ExpiringRow): ExpiringItem {
  const label =
    row.kind === 'override'
      ? `${row.gid ?? 1}:${row.sid ?? 0} ${row.action ?? ''}`
      : `${row.spec?.kind ?? 'threshold'} ${row.spec?.gid ?? 1}:${row.spec?.sid ?? 0}`;
  return {
    kind: row.kind,
    object_type: 'policy',
    object_id: row.policy_id,
    object_name: row.policy_name,
    label,
    expires_at: row.expires_at.toISOString(),
    reason: row.reason,
  };
}

/** The organization's overrides and thresholds that expire by `until` (or are past it). */
export async function expiringPolicyItems(
  db: Queryable,
  orgId: number,
  until: Date,
): Promise<ExpiringItem[]> {
  return (await repo.expiring(db, orgId, until)).map(expiringItem);
}

/** Organizations with an override or threshold due by `now`. */
export function orgsWithExpiredPolicyItems(db: Queryable, now: Date): Promise<number[]> {
  return repo.orgsWithExpired(db, now);
}

/**
 * Removes the organization's overrides and thresholds due by `now` and re-renders the policies
 * that held them, as an edit does (devices hear of the versions that moved). Answers what went.
 */
export async function removeExpiredPolicyItems(
  tx: Queryable,
  orgId: number,
  now: Date,
): Promise<ExpiringItem[]> {
  const removed = await repo.deleteExpired(tx, orgId, now);
  if (removed.length === 0) return [];
  for (const id of new Set(removed.map((r) => r.policy_id))) await renderStored(tx, id, 'expiry');
  await notifyDevices(tx, orgId);
  return removed.map(expiringItem);
}

/** Migrations after which a policy may render other text from the same rows. */
const RENDER_CHANGING_MIGRATIONS = new Set([
  '20261126120000_policy_resolve_flowbits',
  // Not a change of what renders: the version store's baselines need each policy's text.
  VERSIONS_MIGRATION,
]);

/**
 * After migrations that change what policies render: re-renders every policy, so that a version
 * names one text again and devices hear of the new one (a policy's stored digest no longer
 * matching its render would otherwise be served uncached under its old version).
 */
export async function rerenderAfterMigrations(tx: Queryable, applied: string[]): Promise<void> {
  if (!applied.some((version) => RENDER_CHANGING_MIGRATIONS.has(version))) return;
  const storeAll = applied.includes(VERSIONS_MIGRATION);
  for (const [orgId, ids] of await repo.idsByOrganization(tx)) {
    const moved = await rerenderPolicies(tx, ids, { actor: 'migration', storeAll });
    if (moved.length > 0) await notifyDevices(tx, orgId);
  }
}

function present(row: PolicyRow, parts: PolicyParts, principal: Principal): Policy {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    groups: parts.groups,
    rule_count: row.rule_count,
    removed_count: parts.removedCount,
    overrides: parts.overrides,
    thresholds: parts.thresholds,
    matchers: parts.matchers,
    version: row.version,
    restricted: row.restricted,
    resolve_flowbits: parts.resolveFlowbits,
    editors: parts.editors,
    editor_emails: parts.editorEmails,
    can_edit: canEdit(principal, row, parts.editors),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Restrict access: a restricted policy changes only by its editors and Administrators. */
function canEdit(
  principal: Principal,
  row: Pick<PolicyRow, 'restricted'>,
  editors: number[],
): boolean {
  if (principal.role === 'Viewer') return false;
  if (!row.restricted || principal.role === 'Administrator') return true;
  return editors.includes(principal.userId);
}

/** Compiles every matcher's patterns, giving way to other requests between slices. */
async function matcherProblems(
  matchers: PolicyMatcher[],
): Promise<{ field: string; msg: string }[]> {
  const problems: { field: string; msg: string }[] = [];
  const slices = timeSlices(SLICE_MS);
  for (const [index, m] of matchers.entries()) {
    if (slices.due()) await slices.pause();
    const compiled = compileMatcher(m.matcher);
    if ('error' in compiled)
      problems.push({ field: `matchers.${index}.matcher`, msg: compiled.error });
    if (m.kind === 'modify' && (m.from === undefined || m.to === undefined)) {
      problems.push({ field: `matchers.${index}`, msg: 'modify needs from and to' });
    } else if (m.from !== undefined) {
      const fromError = regexError(m.from);
      if (fromError) problems.push({ field: `matchers.${index}.from`, msg: fromError });
      else if (m.to !== undefined) {
        const toError = modifyError(m.from, m.to);
        if (toError) problems.push({ field: `matchers.${index}.to`, msg: toError });
      }
    }
  }
  return problems;
}

/** What a record keeps of a policy: not the caller's view of it nor its stamp. */
const auditedPolicy = ({ can_edit: _can, updated_at: _stamp, ...policy }: Policy) => policy;

export function createPoliciesService(db: Database) {
  /** Records a change to a policy: the fields of its presented form that differ. */
  async function recordChange(
    tx: Queryable,
    principal: Principal,
    change: { before: Policy | null; after: Policy | null; tunedFrom?: number },
  ) {
    const { before, after, tunedFrom } = change;
    const named = after ?? before;
    if (!named) return;
    const diff =
      before && after
        ? changedFields(auditedPolicy(before), auditedPolicy(after))
        : {
            before: before ? auditedPolicy(before) : null,
            after: after ? auditedPolicy(after) : null,
          };
    await recordAudit(tx, {
      orgId: principal.orgId,
      actor: userActor(principal),
      action: tunedFrom !== undefined ? 'tune' : !before ? 'create' : !after ? 'delete' : 'update',
      object: { type: 'policy', id: named.id, name: named.name },
      before: diff.before,
      after: tunedFrom !== undefined ? { ...diff.after, tuned_from_alert: tunedFrom } : diff.after,
    });
  }

  async function load(tx: Queryable, principal: Principal, id: number) {
    const row = await repo.find(tx, principal.orgId, id);
    if (!row) throw notFound('Policy');
    return row;
  }

  async function view(tx: Queryable, principal: Principal, id: number): Promise<Policy> {
    const row = await load(tx, principal, id);
    return present(row, await repo.parts(tx, id), principal);
  }

  async function assertOwned(tx: Queryable, principal: Principal, changes: Changes) {
    type CountOwn = (db: Queryable, orgId: number, ids: number[]) => Promise<number>;
    const checks: [CountOwn, number[] | undefined, string][] = [
      [countOwnGroups, changes.group_ids, 'Group'],
      [countOwnRules, changes.overrides?.map((o) => o.rule_id), 'Rule'],
      [countOwnUsers, changes.editors, 'User'],
    ];
    for (const [countOwn, ids, what] of checks) {
      const unique = [...new Set(ids ?? [])];
      if (unique.length > 0 && (await countOwn(tx, principal.orgId, unique)) !== unique.length) {
        throw notFound(what);
      }
    }
    const problems = await matcherProblems(changes.matchers ?? []);
    if (problems.length > 0)
      throw new AppError(
        'validation_failed',
        `${problems[0]?.field}: ${problems[0]?.msg}`,
        problems,
      );
  }

  async function write(
    tx: Queryable,
    principal: Principal,
    id: number,
    changes: Changes,
    rollback?: { restoredFrom: number },
  ) {
    await orConflict(
      () => repo.updateFields(tx, id, changes),
      `A policy named '${changes.name ?? ''}' already exists`,
    );
    if (changes.group_ids) await repo.setGroups(tx, id, [...new Set(changes.group_ids)]);
    if (changes.overrides) await repo.setOverrides(tx, id, changes.overrides);
    if (changes.matchers) await repo.setMatchers(tx, id, changes.matchers);
    if (changes.thresholds) await repo.setThresholds(tx, id, changes.thresholds);
    if (changes.editors) await repo.setEditors(tx, id, [...new Set(changes.editors)]);
    const output = await renderStored(tx, id, principal.email, rollback);
    // Only the streams of the devices that run it look again, not the organization's fleet
    // (past NOTIFY's size the notice names the organization, and every stream looks).
    await notifyDevices(tx, principal.orgId, await deviceIdsUsingPolicy(tx, id));
    return output;
  }

  async function editable(tx: Queryable, principal: Principal, id: number) {
    assertRole(principal, ...EDITOR_ROLES);
    const row = await load(tx, principal, id);
    const { editors } = await repo.parts(tx, id);
    if (!canEdit(principal, row, editors))
      throw new AppError('forbidden', 'This policy is restricted to its editors');
    return row;
  }

  return {
    async list(principal: Principal, query: ListQuery): Promise<ListResponse<Policy>> {
      const { rows, total } = await repo.list(
        db,
        buildListSql(query, POLICY_LIST_SPEC, [principal.orgId]),
      );
      const parts = await repo.partsOf(
        db,
        rows.map((row) => row.id),
      );
      const data = rows.flatMap((row) => {
        const found = parts.get(row.id);
        return found ? [present(row, found, principal)] : [];
      });
      return { data, recordsTotal: total };
    },

    get: (principal: Principal, id: number) => view(db, principal, id),

    async create(principal: Principal, body: z.output<typeof PolicyWrite>): Promise<Policy> {
      assertRole(principal, ...EDITOR_ROLES);
      return db.transaction(async (tx) => {
        await assertOwned(tx, principal, body);
        const id = await orConflict(
          () => repo.insert(tx, principal.orgId, body),
          `A policy named '${body.name}' already exists`,
        );
        // Whoever restricts a new policy stays among its editors.
        const editors = body.restricted
          ? [...new Set([...body.editors, principal.userId])]
          : body.editors;
        await write(tx, principal, id, { ...body, editors });
        const created = await view(tx, principal, id);
        await recordChange(tx, principal, { before: null, after: created });
        return created;
      });
    },

    async update(
      principal: Principal,
      id: number,
      body: z.output<typeof PolicyUpdate>,
      /** A change made from an alert (POST /alerts/{id}/tune): recorded as a tuning. */
      via: { tunedFrom?: number } = {},
    ): Promise<Policy> {
      return db.transaction(async (tx) => {
        await editable(tx, principal, id);
        await assertOwned(tx, principal, body);
        const before = await view(tx, principal, id);
        await write(tx, principal, id, body);
        const after = await view(tx, principal, id);
        await recordChange(tx, principal, { before, after, ...via });
        return after;
      });
    },

    /**
     * Restores a version's settings (groups, overrides, matchers, thresholds, flowbits) as the
     * policy's next version, in one transaction, audited. Groups or rules deleted since are
     * left out and named; when the rules of its groups changed since, the restored settings
     * render other text than that version did, and the answer says how many rules differ.
     */
    async rollback(principal: Principal, id: number, version: number): Promise<RollbackResponse> {
      return db.transaction(async (tx) => {
        const row = await editable(tx, principal, id);
        const target = await versionAt(tx, 'policy', principal.orgId, id, version);
        if (!target) throw notFound(`Version ${version}`);
        const definition = target.definition as PolicyDefinition;
        const groups = await existingGroupIds(tx, principal.orgId, definition.group_ids);
        const rules = new Set(
          await existingRuleIds(
            tx,
            principal.orgId,
            definition.overrides.map((o) => o.rule_id),
          ),
        );
        const skipped = [
          ...definition.group_ids.filter((g) => !groups.includes(g)).map((g) => `group ${g}`),
          ...definition.overrides
            .filter((o) => !rules.has(o.rule_id))
            .map((o) => `override of rule ${o.rule_id}`),
        ];
        const changes: Changes = {
          group_ids: groups,
          overrides: definition.overrides.filter((o) => rules.has(o.rule_id)),
          matchers: definition.matchers,
          thresholds: definition.thresholds,
          resolve_flowbits: definition.resolve_flowbits,
        };
        await assertOwned(tx, principal, { matchers: changes.matchers });
        const output = await write(tx, principal, id, changes, { restoredFrom: version });
        const after = await load(tx, principal, id);
        let renderDiffers: RollbackResponse['render_differs'] = null;
        if (after.rendered_sha256 !== target.sha256) {
          // A baseline whose text was never stored cannot be compared: say nothing rather than
          // count every rule as new.
          const was = await renderedContent(tx, target.sha256);
          if (was !== null) {
            const counts = rulesDiff(policyFiles(was).rules, output.rules, { limit: 0 }).counts;
            renderDiffers = {
              added: counts.added,
              removed: counts.removed,
              changed: counts.changed,
            };
          }
        }
        const changed = after.version !== row.version;
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'rollback',
          object: { type: 'policy', id, name: row.name },
          before: { version: row.version },
          after: {
            version: after.version,
            restored_from: version,
            ...(skipped.length ? { skipped } : {}),
          },
        });
        const deviceCount = await countDevicesUsingPolicy(tx, id);
        return {
          version: after.version,
          restored_from: version,
          changed,
          device_count: deviceCount,
          render_differs: renderDiffers,
          skipped,
          msg: rollbackMessage(version, after.version, changed, renderDiffers),
        };
      });
    },

    /** Checks the policy is the caller's organization's; how many devices run it. */
    async versionContext(principal: Principal, id: number) {
      await load(db, principal, id);
      return { deviceCount: await countDevicesUsingPolicy(db, id) };
    },

    async remove(principal: Principal, id: number): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await editable(tx, principal, id);
        const devices = await countDevicesUsingPolicy(tx, id);
        if (devices > 0)
          throw new AppError('conflict', `Policy '${row.name}' is used by ${devices} device(s)`);
        const before = await view(tx, principal, id);
        await repo.delete(tx, id);
        await recordChange(tx, principal, { before, after: null });
      });
    },

    async render(principal: Principal, id: number): Promise<PolicyRender> {
      return db.transaction(async (tx) => {
        await load(tx, principal, id);
        const output = await renderStored(tx, id, principal.email);
        const row = await load(tx, principal, id);
        return {
          version: row.version,
          rules: output.rules,
          thresholds: output.thresholds,
          rule_count: output.ruleCount,
          flowbit_rules: output.flowbitRules,
        };
      });
    },

    async export(principal: Principal, id: number): Promise<PolicyExport> {
      const policy = await view(db, principal, id);
      const keys = await ruleKeysOf(
        db,
        policy.overrides.map((o) => o.rule_id),
      );
      return {
        format: 'palisade-policy',
        format_version: 1,
        name: policy.name,
        description: policy.description,
        groups: policy.groups.map((g) => g.name),
        overrides: policy.overrides.flatMap((o) => {
          const key = keys.get(o.rule_id);
          return key ? [{ ...key, action: o.action }] : [];
        }),
        thresholds: policy.thresholds,
        matchers: policy.matchers,
        resolve_flowbits: policy.resolve_flowbits,
      };
    },

    /**
     * Asked before an upload is read: a caller who may not change this policy (role, another
     * organization's policy, a restricted one) is refused before the body costs anything.
     */
    async mayUpload(principal: Principal, id: number): Promise<void> {
      await editable(db, principal, id);
    },

    /**
     * 'Upload custom policies': suricata-update's enable.conf, disable.conf, drop.conf and
     * modify.conf add their matchers to the policy; a Palisade export file replaces its contents.
     * All files or none: one bad line refuses the upload, naming file and line.
     */
    async upload(principal: Principal, id: number, files: UploadedPolicyFile[]) {
      return db.transaction(async (tx) => {
        await editable(tx, principal, id);
        const before = await view(tx, principal, id);
        const parts = await repo.parts(tx, id);
        const added = { enable: 0, disable: 0, drop: 0, modify: 0 };
        let matchers = parts.matchers;
        const report = {
          imported_export: false,
          unknown_groups: [] as string[],
          unknown_rules: [] as string[],
        };
        for (const file of files) {
          const base = file.name.split('/').pop()?.toLowerCase() ?? '';
          const kind = /^(enable|disable|drop|modify)\.conf$/.exec(base)?.[1] as
            PolicyMatcher['kind'] | undefined;
          if (kind) {
            const parsed = await parseConfFile(kind, file.text);
            if (parsed.errors.length > 0) {
              throw new AppError(
                'validation_failed',
                badLinesMessage(file.name, parsed.errors),
                parsed.errors
                  .slice(0, 100)
                  .map((e) => ({ field: `${file.name}:${e.line}`, msg: e.msg })),
              );
            }
            // A line the policy already has (the same file uploaded again) is not added twice.
            const known = new Set(matchers.map(matcherKey));
            const fresh = parsed.matchers.filter((m) => !known.has(matcherKey(m)));
            matchers = [...matchers, ...fresh];
            added[kind] += fresh.length;
          } else if (base.endsWith('.json')) {
            const exported = parseExport(file);
            const groups = await groupIdsByName(tx, principal.orgId, exported.groups);
            const rules = await ruleIdsBySignature(tx, principal.orgId, exported.overrides);
            report.unknown_groups = exported.groups.filter(
              (name) => !groups.has(name.toLowerCase()),
            );
            report.unknown_rules = exported.overrides
              .map((o) => `${o.gid}:${o.sid}`)
              .filter((key) => !rules.has(key));
            await write(tx, principal, id, {
              description: exported.description,
              group_ids: [...groups.values()],
              overrides: exported.overrides.flatMap((o) => {
                const ruleId = rules.get(`${o.gid}:${o.sid}`);
                return ruleId === undefined ? [] : [{ rule_id: ruleId, action: o.action }];
              }),
              thresholds: exported.thresholds,
              resolve_flowbits: exported.resolve_flowbits ?? true,
            });
            matchers = exported.matchers;
            report.imported_export = true;
          } else {
            throw new AppError(
              'validation_failed',
              `${file.name}: expected enable.conf, disable.conf, drop.conf, modify.conf or a policy export (.json)`,
              [{ field: 'file', msg: `unsupported file: ${file.name}` }],
            );
          }
        }
        const problems = await matcherProblems(matchers);
        if (problems.length > 0)
          throw new AppError('validation_failed', `${problems[0]?.msg}`, problems);
        await write(tx, principal, id, { matchers });
        const policy = await view(tx, principal, id);
        await recordChange(tx, principal, { before, after: policy });
        return { policy, added, ...report };
      });
    },
  };
}

function rollbackMessage(
  restored: number,
  now: number,
  changed: boolean,
  differs: RollbackResponse['render_differs'],
): string {
  if (!changed)
    return `The policy already renders as version ${restored} would now: nothing changed`;
  const base = `Version ${restored}'s settings restored as version ${now}`;
  if (!differs) return base;
  const n = differs.added + differs.removed + differs.changed;
  return `${base}; ${n} rule(s) render differently than in version ${restored}, because the rules of its groups changed since`;
}

const matcherKey = (m: PolicyMatcher) => JSON.stringify([m.kind, m.matcher, m.from, m.to]);

function parseExport(file: UploadedPolicyFile): PolicyExport {
  let json: unknown;
  try {
    json = JSON.parse(file.text);
  } catch (error) {
    throw new AppError(
      'validation_failed',
      `${file.name}: not JSON (${(error as Error).message})`,
      [{ field: 'file', msg: 'not JSON' }],
    );
  }
  const parsed = PolicyExport.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError(
      'validation_failed',
      `${file.name}: not a Palisade policy export (${issue?.path.join('.')}: ${issue?.message})`,
      [{ field: 'file', msg: 'not a policy export' }],
    );
  }
  return parsed.data;
}

/**
 * The first bad line of an uploaded conf file with what is wrong, and the numbers of the others
 * (someone fixing the file wants them all at once, not one upload per line).
 */
function badLinesMessage(fileName: string, errors: { line: number; msg: string }[]): string {
  const [first, ...others] = errors;
  const message = `${fileName} line ${first?.line}: ${first?.msg}`;
  if (others.length === 0) return message;
  const shown = others.slice(0, 10).map((e) => e.line);
  const more = others.length > shown.length ? ` and ${others.length - shown.length} more` : '';
  return `${message} (also line${others.length > 1 ? 's' : ''} ${shown.join(', ')}${more})`;
}
