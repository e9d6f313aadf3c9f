import type { ImportReport, RejectedLine } from '@palisade/contract';
import { parseClassificationConfig, parseRulesFile, type Rule } from '@palisade/rules';
import type { Queryable } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { UnpackedUpload } from './rule-archive.js';
import { ruleKey, toRecord } from './rule-record.js';
import { rulesRepository as repo, type ExistingRule, type RuleRecord } from './rules.repository.js';

export interface ImportOptions {
  /** Refuse the whole import when any line is rejected (default: import the rest, report them). */
  strict: boolean;
}

/** Group of an imported file: its name without `.rules` (`emerging-dos.rules` → `emerging-dos`). */
export const groupNameOf = (fileName: string) => fileName.replace(/\.rules$/i, '');

/**
 * Imports unpacked uploads into one organization inside the caller's transaction. Rules are
 * unique by (gid, sid); a newer rev (or a changed text at the same rev) replaces the stored
 * rule; each file's group becomes exactly that file's rules; a rule that left its file is
 * marked removed, and stays in policies until someone decides.
 */
export async function importRules(
  tx: Queryable,
  orgId: number,
  uploads: UnpackedUpload[],
  options: ImportOptions,
): Promise<ImportReport> {
  const report: ImportReport = {
    files: [],
    added: 0,
    updated: 0,
    unchanged: 0,
    removed: 0,
    classifications: 0,
    rejected: [],
  };
  const existing = await repo.existing(tx, orgId);
  const byId = new Map([...existing.values()].map((rule) => [rule.id, rule]));

  for (const upload of uploads) {
    if (upload.classificationConfig !== undefined) {
      const parsed = parseClassificationConfig(upload.classificationConfig, {
        fileName: 'classification.config',
      });
      report.rejected.push(
        ...parsed.diagnostics.filter((d) => d.severity === 'error').map(toRejected),
      );
      const entries = [...parsed.classifications].map(([name, c]) => ({ name, ...c }));
      await repo.upsertClassifications(tx, orgId, entries);
      report.classifications += entries.length;
    }
  }

  const files = uploads.flatMap((upload) => upload.ruleFiles);
  for (const file of files) {
    const parsed = parseRulesFile(file.text, { fileName: file.name });
    const errors = parsed.diagnostics.filter((d) => d.severity === 'error').map(toRejected);
    if (parsed.rules.length === 0 && errors.length > 0) {
      const first = errors[0];
      throw new AppError(
        'validation_failed',
        `${file.name}: no valid rule (line ${first?.line}: ${first?.msg})`,
        errors.slice(0, 100).map((e) => ({ field: `${e.file}:${e.line}`, msg: e.msg })),
      );
    }
    report.rejected.push(...errors);

    const latest = new Map<string, Rule>();
    for (const rule of parsed.rules) latest.set(ruleKey(rule), rule); // a later duplicate wins

    const toWrite: RuleRecord[] = [];
    const memberIds: number[] = [];
    for (const [key, rule] of latest) {
      const stored = existing.get(key);
      const verdict = compare(stored, rule, file.name);
      if (verdict === 'keep' && stored) {
        memberIds.push(stored.id);
        report.unchanged += 1;
        continue;
      }
      toWrite.push(toRecord(rule, file.name));
      if (verdict === 'add') report.added += 1;
      else report.updated += 1;
    }
    const writtenIds = await repo.upsert(tx, orgId, toWrite);
    toWrite.forEach((record, index) => {
      const id = writtenIds[index] ?? -1;
      memberIds.push(id);
      const stored: ExistingRule = {
        id,
        rev: record.rev,
        text: record.text,
        source: record.source,
        removed: false,
      };
      existing.set(ruleKey(record), stored);
      byId.set(id, stored);
    });

    const group = await upsertFileGroup(tx, orgId, groupNameOf(file.name));
    const left = await replaceMembers(tx, group, memberIds);
    // Rules that left this file (and did not move to another file) stay in its group, marked
    // removed, so that the policies using the group show them instead of losing them silently.
    const stillHere = [...left].filter((id) => byId.get(id)?.source === file.name);
    await addMembers(tx, group, stillHere);
    const gone = stillHere.filter((id) => byId.get(id)?.removed === false);
    await repo.markRemoved(tx, gone);
    for (const id of gone) {
      const rule = byId.get(id);
      if (rule) rule.removed = true;
    }
    report.removed += gone.length;
    report.files.push({ file: file.name, group: groupNameOf(file.name), rules: latest.size });
  }

  if (options.strict && report.rejected.length > 0) {
    const first = report.rejected[0];
    throw new AppError(
      'validation_failed',
      `${report.rejected.length} line(s) rejected; first: ${first?.file} line ${first?.line}: ${first?.msg}`,
      report.rejected.slice(0, 100).map((e) => ({ field: `${e.file}:${e.line}`, msg: e.msg })),
    );
  }
  return report;
}

/** 'add' a new rule, 'replace' the stored one, or 'keep' it. */
function compare(
  stored: ExistingRule | undefined,
  incoming: Rule,
  file: string,
): 'add' | 'replace' | 'keep' {
  if (!stored) return 'add';
  if (stored.removed || stored.source !== file)
    return stored.text === incoming.text && !stored.removed ? 'keep' : 'replace';
  if (stored.text === incoming.text) return 'keep';
  // An older rev never overwrites a newer one.
  if (stored.rev !== null && incoming.rev !== null && incoming.rev < stored.rev) return 'keep';
  return 'replace';
}

async function upsertFileGroup(tx: Queryable, orgId: number, name: string): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO rule_groups (org_id, name, kind) VALUES ($1, $2, 'file')
     ON CONFLICT (org_id, lower(name)) DO UPDATE SET updated_at = now()
     RETURNING id`,
    [orgId, name],
  );
  if (!row) throw new Error('group upsert returned no row');
  return row.id;
}

/** Sets a group's members; returns the ids that were members before and are not now. */
async function replaceMembers(
  tx: Queryable,
  groupId: number,
  ruleIds: number[],
): Promise<Set<number>> {
  const before = await tx.query<{ rule_id: number }>(
    'SELECT rule_id FROM group_rules WHERE group_id = $1',
    [groupId],
  );
  const now = new Set(ruleIds);
  const left = new Set(before.map((row) => row.rule_id).filter((id) => !now.has(id)));
  await tx.query('DELETE FROM group_rules WHERE group_id = $1', [groupId]);
  await addMembers(tx, groupId, ruleIds);
  return left;
}

async function addMembers(tx: Queryable, groupId: number, ruleIds: number[]): Promise<void> {
  if (ruleIds.length === 0) return;
  await tx.query(
    'INSERT INTO group_rules (group_id, rule_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
    [groupId, ruleIds],
  );
}

const toRejected = (d: {
  fileName?: string;
  line: number;
  column: number;
  message: string;
}): RejectedLine => ({
  file: d.fileName ?? '',
  line: d.line,
  column: d.column,
  msg: d.message,
});
