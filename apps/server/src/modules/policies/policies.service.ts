import {
  PolicyExport,
  type ListQuery,
  type ListResponse,
  type Policy,
  type PolicyMatcher,
  type PolicyRender,
  type PolicyUpdate,
  type PolicyWrite,
} from '@palisade/contract';
import type { z } from 'zod';
import type { Database, Queryable } from '../../db/client.js';
import { orConflict } from '../../db/errors.js';
import { buildListSql } from '../../db/list-query.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { SLICE_MS, timeSlices } from '../../lib/time-slices.js';
import { assertRole, EDITOR_ROLES, type Principal } from '../../plugins/auth.js';
import { notifyDevices } from '../../plugins/device-events.js';
import { compileMatcher, modifyError, parseConfFile, regexError } from './policy-matchers.js';
import { rerenderPolicies, renderedSha256 } from './policy-refresh.js';
import { renderPolicy } from './policy-render.js';
import {
  POLICY_LIST_SPEC,
  policiesRepository as repo,
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
  // matcher or an enable/drop override turns it on; metadata only when a matcher reads it.
  const enables = parts.matchers.some((m) => m.kind === 'enable');
  const enabledByOverride = parts.overrides
    .filter((o) => o.action === 'enable' || o.action === 'drop')
    .map((o) => o.rule_id);
  const rules = await repo.rulesOf(tx, id, {
    metadata: parts.matchers.some((m) => /^\s*metadata:/i.test(m.matcher)),
    ...(enables ? {} : { enabledOr: enabledByOverride }),
  });
  return renderPolicy({
    rules,
    overrides: new Map(parts.overrides.map((o) => [o.rule_id, o.action])),
    matchers: parts.matchers,
    thresholds: parts.thresholds,
  });
}

/** Renders a policy from the database and records its version; shared by every writer. */
export async function renderStored(tx: Queryable, id: number) {
  const output = await renderPolicyById(tx, id);
  await repo.recordRender(tx, id, renderedSha256(output), output.ruleCount);
  return output;
}

/**
 * After a write to rules or group members: re-renders only the policies built on a touched group
 * or on a group holding a touched rule (a rule's text changed, or a group's members did), in a
 * constant number of statements however many policies the organization has. Devices hear of it
 * when a version moved. Answers how many policies got a new version.
 */
export async function refreshPoliciesHolding(
  tx: Queryable,
  orgId: number,
  touched: { groupIds?: number[]; ruleIds?: number[] },
): Promise<number> {
  const ids = await repo.idsHolding(tx, orgId, {
    groupIds: touched.groupIds ?? [],
    ruleIds: touched.ruleIds ?? [],
  });
  const moved = await rerenderPolicies(tx, ids);
  if (moved.length > 0) await notifyDevices(tx, orgId);
  return moved.length;
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

export function createPoliciesService(db: Database) {
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
    const checks: ['rule_groups' | 'rules' | 'users', number[] | undefined, string][] = [
      ['rule_groups', changes.group_ids, 'Group'],
      ['rules', changes.overrides?.map((o) => o.rule_id), 'Rule'],
      ['users', changes.editors, 'User'],
    ];
    for (const [table, ids, what] of checks) {
      const unique = [...new Set(ids ?? [])];
      if (
        unique.length > 0 &&
        (await repo.countOwned(tx, table, principal.orgId, unique)) !== unique.length
      ) {
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

  async function write(tx: Queryable, orgId: number, id: number, changes: Changes) {
    await orConflict(
      () => repo.updateFields(tx, id, changes),
      `A policy named '${changes.name ?? ''}' already exists`,
    );
    if (changes.group_ids) await repo.setGroups(tx, id, [...new Set(changes.group_ids)]);
    if (changes.overrides) await repo.setOverrides(tx, id, changes.overrides);
    if (changes.matchers) await repo.setMatchers(tx, id, changes.matchers);
    if (changes.thresholds) await repo.setThresholds(tx, id, changes.thresholds);
    if (changes.editors) await repo.setEditors(tx, id, [...new Set(changes.editors)]);
    await renderStored(tx, id);
    await notifyDevices(tx, orgId);
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
        await write(tx, principal.orgId, id, { ...body, editors });
        return view(tx, principal, id);
      });
    },

    async update(
      principal: Principal,
      id: number,
      body: z.output<typeof PolicyUpdate>,
    ): Promise<Policy> {
      return db.transaction(async (tx) => {
        await editable(tx, principal, id);
        await assertOwned(tx, principal, body);
        await write(tx, principal.orgId, id, body);
        return view(tx, principal, id);
      });
    },

    async remove(principal: Principal, id: number): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await editable(tx, principal, id);
        const devices = await repo.deviceCount(tx, id);
        if (devices > 0)
          throw new AppError('conflict', `Policy '${row.name}' is used by ${devices} device(s)`);
        await repo.delete(tx, id);
      });
    },

    async render(principal: Principal, id: number): Promise<PolicyRender> {
      return db.transaction(async (tx) => {
        await load(tx, principal, id);
        const output = await renderStored(tx, id);
        const row = await load(tx, principal, id);
        return {
          version: row.version,
          rules: output.rules,
          thresholds: output.thresholds,
          rule_count: output.ruleCount,
        };
      });
    },

    async export(principal: Principal, id: number): Promise<PolicyExport> {
      const policy = await view(db, principal, id);
      const keys = await repo.ruleKeys(
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
            const groups = await repo.groupIdsByName(tx, principal.orgId, exported.groups);
            const rules = await repo.ruleIdsByKey(tx, principal.orgId, exported.overrides);
            report.unknown_groups = exported.groups.filter(
              (name) => !groups.has(name.toLowerCase()),
            );
            report.unknown_rules = exported.overrides
              .map((o) => `${o.gid}:${o.sid}`)
              .filter((key) => !rules.has(key));
            await write(tx, principal.orgId, id, {
              description: exported.description,
              group_ids: [...groups.values()],
              overrides: exported.overrides.flatMap((o) => {
                const ruleId = rules.get(`${o.gid}:${o.sid}`);
                return ruleId === undefined ? [] : [{ rule_id: ruleId, action: o.action }];
              }),
              thresholds: exported.thresholds,
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
        await write(tx, principal.orgId, id, { matchers });
        return { policy: await view(tx, principal, id), added, ...report };
      });
    },
  };
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
