import type {
  ImportReport,
  ListQuery,
  ListResponse,
  RuleDetail,
  RuleSummary,
  RuleUpdate,
  RuleWrite,
} from '@palisade/contract';
import { formatRule, parseRule, RULE_ACTIONS, type Rule } from '@palisade/rules';
import type { z } from 'zod';
import type { Database, Queryable } from '../../db/client.js';
import { buildListSql } from '../../db/list-query.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { assertRole, EDITOR_ROLES, type Principal } from '../../plugins/auth.js';
import { changedFields, recordAudit, userActor } from '../audit/audit.service.js';
import { addRuleToOwnGroups, ensureCustomGroup } from '../groups/groups.service.js';
import { refreshPoliciesHolding } from '../policies/policies.service.js';
import type { UnpackedUpload } from './rule-archive.js';
import { toRecord } from './rule-record.js';
import { importRules } from './rules-import.js';
import { presentRule, presentRuleDetail } from './rules.presenter.js';
import { RULE_LIST_SPEC, rulesRepository as repo } from './rules.repository.js';

export const CUSTOM_GROUP = 'custom';

/** Parses one rule typed by a user; a bad one is a 422 naming the column and the problem. */
function parseOrReject(text: string): Rule {
  const { rule, diagnostics } = parseRule(text);
  if (rule) return rule;
  const first = diagnostics[0];
  const msg = first ? `column ${first.column}: ${first.message}` : 'not a valid rule';
  throw new AppError('validation_failed', `Invalid rule: ${msg}`, [{ field: 'text', msg }]);
}

/** A rule's name in the log: its key and message. */
const ruleName = (rule: RuleDetail) => `${rule.gid}:${rule.sid} ${rule.msg}`;
/** What a record keeps of a rule: not its stamp, which changes on every write. */
const auditedRule = ({ updated_at: _stamp, ...rule }: RuleDetail) => rule;

/** An import's name in the log: its files, the first few of an archive that holds many. */
function importName(uploads: UnpackedUpload[]): string {
  const names = uploads.flatMap((upload) => upload.ruleFiles.map((file) => file.name));
  const shown = names.slice(0, 5).join(', ');
  return names.length > 5 ? `${shown} and ${names.length - 5} more` : shown;
}

/** The organization's rule of a signature, if it has one. */
export const findRuleBySignature = (db: Queryable, orgId: number, gid: number, sid: number) =>
  repo.findBySignature(db, orgId, gid, sid);

/** How many of ids are rules of the organization. */
export const countOwnRules = (db: Queryable, orgId: number, ids: number[]) =>
  repo.countOwned(db, orgId, ids);

/** Those of the ids that are rules of the organization, sorted. */
export const existingRuleIds = (db: Queryable, orgId: number, ids: number[]) =>
  repo.ownedIds(db, orgId, ids);

/** The organization's rules of these signatures, by `gid:sid`. */
export const ruleIdsBySignature = (
  db: Queryable,
  orgId: number,
  keys: { gid: number; sid: number }[],
) => repo.idsBySignature(db, orgId, keys);

/** The signatures of the rules, by id (a policy export's overrides). */
export const ruleKeysOf = (db: Queryable, ids: number[]) => repo.keysOf(db, ids);

/** The signatures of the organization's rules given (for the policy backtest). */
export const signaturesOfRules = (db: Queryable, orgId: number, ruleIds: number[]) =>
  repo.signaturesOf(db, orgId, ruleIds);

export function createRulesService(db: Database) {
  async function detail(orgId: number, id: number, tx: Queryable = db): Promise<RuleDetail> {
    const [row] = await repo.details(tx, orgId, [id]);
    if (!row) throw notFound('Rule');
    return presentRuleDetail(row);
  }

  async function assertFree(tx: Queryable, orgId: number, rule: Rule, exceptId?: number) {
    const clash = await repo.findByKey(tx, orgId, rule.gid, rule.sid);
    if (clash && clash.id !== exceptId) {
      throw new AppError(
        'conflict',
        `A rule with gid ${rule.gid} and sid ${rule.sid} already exists (id ${clash.id})`,
      );
    }
  }

  return {
    async list(principal: Principal, query: ListQuery): Promise<ListResponse<RuleSummary>> {
      const { rows, total } = await repo.list(
        db,
        buildListSql(query, RULE_LIST_SPEC, [principal.orgId]),
      );
      return { data: rows.map(presentRule), recordsTotal: total };
    },

    async many(principal: Principal, ids: number[]): Promise<{ data: RuleDetail[] }> {
      const rows = await repo.details(db, principal.orgId, [...new Set(ids)]);
      return { data: rows.map(presentRuleDetail) };
    },

    get: (principal: Principal, id: number) => detail(principal.orgId, id),

    /** Asked before an upload is read: whoever may not import is refused at no cost. */
    mayImport(principal: Principal): void {
      assertRole(principal, ...EDITOR_ROLES);
    },

    /** One transaction: a failing file leaves the organization's rules as they were. */
    async import(
      principal: Principal,
      uploads: UnpackedUpload[],
      strict: boolean,
    ): Promise<ImportReport> {
      assertRole(principal, ...EDITOR_ROLES);
      return db.transaction(async (tx) => {
        const { report, touched } = await importRules(tx, principal.orgId, uploads, { strict });
        await refreshPoliciesHolding(tx, principal.orgId, touched, principal.email);
        // One record per import, with its counts: a rule file holds tens of thousands of rules.
        const { added, updated, unchanged, removed, classifications } = report;
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'import',
          object: { type: 'rule', id: null, name: importName(uploads) },
          after: {
            files: report.files.length,
            added,
            updated,
            unchanged,
            removed,
            classifications,
            rejected: report.rejected.length,
            warnings: report.warning_count,
          },
        });
        return report;
      });
    },

    async create(principal: Principal, body: z.output<typeof RuleWrite>): Promise<RuleDetail> {
      assertRole(principal, ...EDITOR_ROLES);
      const rule = parseOrReject(body.text);
      return db.transaction(async (tx) => {
        await assertFree(tx, principal.orgId, rule);
        const [id] = await repo.upsert(tx, principal.orgId, [toRecord(rule, CUSTOM_GROUP)]);
        const groupIds = body.group_ids?.length
          ? body.group_ids
          : [await ensureCustomGroup(tx, principal.orgId, CUSTOM_GROUP)];
        await addRuleToOwnGroups(tx, { orgId: principal.orgId, groupIds, ruleId: id ?? -1 });
        await refreshPoliciesHolding(tx, principal.orgId, { groupIds }, principal.email);
        const created = await detail(principal.orgId, id ?? -1, tx);
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'create',
          object: { type: 'rule', id: created.id, name: ruleName(created) },
          after: auditedRule(created),
        });
        return created;
      });
    },

    async update(
      principal: Principal,
      id: number,
      body: z.output<typeof RuleUpdate>,
    ): Promise<RuleDetail> {
      assertRole(principal, ...EDITOR_ROLES);
      return db.transaction(async (tx) => {
        const current = await detail(principal.orgId, id, tx);
        let text = body.text ?? current.text;
        if (body.action !== undefined || body.enabled !== undefined) {
          const action = body.action ?? parseOrReject(text).action;
          if (!RULE_ACTIONS.has(action.split(':')[0] ?? action)) {
            throw new AppError('validation_failed', `Unknown action '${action}'`, [
              { field: 'action', msg: 'unknown action' },
            ]);
          }
          text = formatRule({ text, action, enabled: body.enabled ?? parseOrReject(text).enabled });
        }
        const rule = parseOrReject(text);
        await assertFree(tx, principal.orgId, rule, id);
        // A changed (gid, sid) keeps the row: update it in place under its new key.
        await repo.rekey(tx, id, rule);
        await repo.upsert(tx, principal.orgId, [toRecord(rule, current.source)]);
        await refreshPoliciesHolding(tx, principal.orgId, { ruleIds: [id] }, principal.email);
        const updated = await detail(principal.orgId, id, tx);
        await recordAudit(tx, {
          orgId: principal.orgId,
          actor: userActor(principal),
          action: 'update',
          object: { type: 'rule', id, name: ruleName(updated) },
          ...changedFields(auditedRule(current), auditedRule(updated)),
        });
        return updated;
      });
    },
  };
}
