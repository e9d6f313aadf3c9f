import { createHash } from 'node:crypto';
import { RULE_TEXT_MAX, type ImportReport, type RejectedLine } from '@palisade/contract';
import { parseClassificationConfig, parseRulesFile, type Rule } from '@palisade/rules';
import type { Queryable } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { UnpackedUpload } from './rule-archive.js';
import { ruleKey, toRecord } from './rule-record.js';
import { rulesRepository as repo, type RuleRecord } from './rules.repository.js';

export interface ImportOptions {
  /** Refuse the whole import when any line is rejected (default: import the rest, report them). */
  strict: boolean;
  /**
   * Import as this rule source's groups: found by (source, name), not by name alone; a group
   * of the source that this import no longer has loses its rules (marked removed).
   */
  source?: { id: number; name: string };
  /** Return what changed per rule (a rule source's changelog). */
  collectChanges?: boolean;
}

/** One rule an import added, changed or removed, with its texts before and after. */
export interface ImportedRuleChange {
  kind: 'added' | 'changed' | 'removed';
  gid: number;
  sid: number;
  /** Set for a rule that was stored before this import (always, unless added). */
  ruleId: number | null;
  file: string;
  msg: string;
  oldRev: number | null;
  newRev: number | null;
  oldText: string | null;
  newText: string | null;
}

/** What an import changed that policies render: rules rewritten or removed, groups re-membered. */
export interface ImportTouched {
  ruleIds: number[];
  groupIds: number[];
}

/** Group of an imported file: its name without `.rules` (`emerging-dos.rules` → `emerging-dos`). */
export const groupNameOf = (fileName: string) => fileName.replace(/\.rules$/i, '');

/** A rule as this import sees it: stored, or about to be written (id not known yet). */
interface RuleState {
  id: number | null;
  rev: number | null;
  /** The stored text's MD5, or the text itself for a rule decided by this import. */
  text: { md5: string } | { text: string };
  source: string;
  removed: boolean;
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/**
 * Imports unpacked uploads into one organization inside the caller's transaction. Rules are
 * unique by (gid, sid); a newer rev (or a changed text at the same rev) replaces the stored
 * rule; each file's group becomes exactly that file's rules; a rule that left its file is
 * marked removed, and stays in policies until someone decides.
 *
 * Files are decided one after another in memory (a later file sees what an earlier one
 * wrote), then written together: one COPY for the rules, one statement each for the groups,
 * their members and the removed marks, whatever the number of files.
 */
export async function importRules(
  tx: Queryable,
  orgId: number,
  uploads: UnpackedUpload[],
  options: ImportOptions,
): Promise<{ report: ImportReport; touched: ImportTouched; changes: ImportedRuleChange[] }> {
  const report: ImportReport = {
    files: [],
    added: 0,
    updated: 0,
    unchanged: 0,
    removed: 0,
    classifications: 0,
    rejected: [],
    warnings: [],
    warning_count: 0,
  };
  const warn = (file: string, rule: Rule, msg: string) => {
    report.warning_count += 1;
    if (report.warnings.length < MAX_WARNINGS) {
      report.warnings.push({ file, line: rule.line, column: 1, msg });
    }
  };
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

  const state = new Map<string, RuleState>();
  for (const [key, row] of await repo.existing(tx, orgId)) {
    state.set(key, {
      id: row.id,
      rev: row.rev,
      text: { md5: row.text_md5 },
      source: row.source,
      removed: row.removed,
    });
  }

  // 1. Decide, file by file. A rule new to the organization is loaded by one COPY, a file's
  // worth at a time while the next file is read; any other write (a newer rev, a rule that
  // moved, a later file's copy of a rule added by an earlier one) is an upsert after it.
  const replacements = new Map<string, RuleRecord>();
  const fileKeys: { name: string; keys: Set<string> }[] = [];
  const lastSeen = new Map<string, { file: string; rule: Rule }>();
  const changes = options.collectChanges ? new Map<string, ImportedRuleChange>() : undefined;
  async function* decideFiles(): AsyncGenerator<RuleRecord[]> {
    for (const file of uploads.flatMap((upload) => upload.ruleFiles)) {
      const parsed = parseRulesFile(await file.read(), { fileName: file.name });
      const errors = parsed.diagnostics.filter((d) => d.severity === 'error').map(toRejected);
      // A rule longer than POST /rules/ takes is a rejected line like any other bad one.
      const rules = parsed.rules.filter((rule) => {
        if (rule.text.trim().length <= RULE_TEXT_MAX) return true;
        errors.push({ file: file.name, line: rule.line, column: 1, msg: tooLong(rule) });
        return false;
      });
      errors.sort((a, b) => a.line - b.line);
      if (rules.length === 0 && errors.length > 0) {
        const first = errors[0];
        throw new AppError(
          'validation_failed',
          `${file.name}: no valid rule (line ${first?.line}: ${first?.msg})`,
          errors.slice(0, 100).map((e) => ({ field: `${e.file}:${e.line}`, msg: e.msg })),
        );
      }
      report.rejected.push(...errors);

      const latest = new Map<string, Rule>();
      for (const rule of rules) {
        const key = ruleKey(rule);
        const earlier = latest.get(key);
        if (earlier) {
          warn(
            file.name,
            rule,
            `rule ${key} is also at line ${earlier.line}: this later one is kept`,
          );
        }
        latest.set(key, rule);
      }
      const added: RuleRecord[] = [];
      for (const [key, rule] of latest) {
        lastSeen.set(key, { file: file.name, rule });
        const stored = state.get(key);
        const verdict = compare(stored, rule);
        const collision = stored ? collisionOf(key, stored, rule, file.name, verdict) : null;
        if (collision) warn(file.name, rule, collision);
        if (verdict === 'keep') {
          report.unchanged += 1;
          continue;
        }
        if (changes) noteChange(changes, key, stored, rule, file.name);
        const record = toRecord(rule, file.name);
        if (verdict === 'add') added.push(record);
        else replacements.set(key, record);
        state.set(key, {
          id: stored?.id ?? null,
          rev: rule.rev,
          text: { text: rule.text },
          source: file.name,
          removed: false,
        });
        if (verdict === 'add') report.added += 1;
        else report.updated += 1;
      }
      fileKeys.push({ name: file.name, keys: new Set(latest.keys()) });
      report.files.push({ file: file.name, group: groupNameOf(file.name), rules: latest.size });
      yield added;
    }
  }
  const insertedIds = await repo.insertNew(tx, orgId, decideFiles());
  for (const [key, id] of insertedIds) {
    const rule = state.get(key);
    if (rule?.id === null) rule.id = id;
  }

  // A rule kept as it was but found in another file than its own, whose own file in this
  // upload no longer has it, has moved: it now belongs to the file it was found in (unless
  // that file has an older rev of it, which would overwrite the newer text).
  const keysOf = new Map(fileKeys.map((f) => [f.name, f.keys]));
  for (const [key, { file, rule }] of lastSeen) {
    const stored = state.get(key);
    const ownFile = stored ? keysOf.get(stored.source) : undefined;
    if (!stored || stored.source === file || !ownFile || ownFile.has(key)) continue;
    if (isOlder(stored, rule)) continue;
    stored.source = file;
    replacements.set(key, toRecord(rule, file));
  }

  // 2. The other writes. (The changelog's old texts are read before they are overwritten.)
  if (changes) await readOldTexts(tx, orgId, [...changes.values()]);
  const replaced = [...replacements.values()];
  const replacedIds = await repo.upsert(tx, orgId, replaced);
  replaced.forEach((record, index) => {
    const written = state.get(ruleKey(record));
    if (written) written.id = replacedIds[index] ?? -1;
  });
  const byId = new Map<number, RuleState>();
  for (const rule of state.values()) if (rule.id !== null) byId.set(rule.id, rule);

  // 3. Each file's group becomes its rules. Rules that left a file (and did not move to
  // another file) stay in its group, marked removed, so that the policies using the group show
  // them instead of losing them silently.
  const groupNames = [...new Set(fileKeys.map((f) => groupNameOf(f.name)))];
  const scoped = options.source
    ? await repo.sourceGroups(tx, orgId, options.source, groupNames)
    : { ids: await repo.upsertFileGroups(tx, orgId, groupNames), renamed: [], left: [] };
  for (const { member, group } of scoped.renamed) {
    report.warning_count += 1;
    report.warnings.push({
      file: member,
      line: 0,
      column: 0,
      msg: `another group is named ${member}: this source's group is named ${group}`,
    });
  }
  const groupIds = scoped.ids;
  const before = await repo.groupMembers(tx, [...groupIds.values(), ...scoped.left]);
  const after = new Map<number, Set<number>>();
  const gone: number[] = [];
  for (const file of fileKeys) {
    const groupId = groupIds.get(groupNameOf(file.name).toLowerCase()) ?? -1;
    const current = after.get(groupId) ?? before.get(groupId) ?? new Set<number>();
    const members = new Set([...file.keys].map((key) => writtenId(state, key)));
    for (const id of current) {
      const rule = byId.get(id);
      if (members.has(id) || rule?.source !== file.name) continue;
      members.add(id);
      if (!rule.removed) {
        rule.removed = true;
        gone.push(id);
      }
    }
    after.set(groupId, members);
  }
  // A source's group whose file the source no longer has: its rules are gone from the source
  // (unless they are in another of its files now).
  if (scoped.left.length > 0) {
    const present = new Set([...lastSeen.keys()].map((key) => writtenId(state, key)));
    for (const groupId of scoped.left) {
      for (const id of before.get(groupId) ?? []) {
        const rule = byId.get(id);
        if (!rule || rule.removed || present.has(id)) continue;
        rule.removed = true;
        gone.push(id);
      }
    }
  }
  const changed = new Map([...after].filter(([id, members]) => !sameSet(members, before.get(id))));
  await repo.setGroupMembers(tx, changed);
  if (changes) {
    for (const row of await repo.texts(tx, orgId, gone)) {
      changes.set(`${row.gid}:${row.sid}`, {
        kind: 'removed',
        gid: row.gid,
        sid: row.sid,
        ruleId: row.id,
        file: row.source,
        msg: row.msg,
        oldRev: row.rev,
        newRev: null,
        oldText: row.text,
        newText: null,
      });
    }
  }
  await repo.markRemoved(tx, gone);
  report.removed = gone.length;

  if (options.strict && report.rejected.length > 0) {
    const first = report.rejected[0];
    throw new AppError(
      'validation_failed',
      `${report.rejected.length} line(s) rejected; first: ${first?.file} line ${first?.line}: ${first?.msg}`,
      report.rejected.slice(0, 100).map((e) => ({ field: `${e.file}:${e.line}`, msg: e.msg })),
    );
  }
  for (const change of changes?.values() ?? []) {
    change.ruleId ??= state.get(`${change.gid}:${change.sid}`)?.id ?? null;
  }
  return {
    report,
    touched: { ruleIds: [...replacedIds, ...gone], groupIds: [...changed.keys()] },
    changes: [...(changes?.values() ?? [])],
  };
}

/**
 * Notes a rule this import writes. A rule written twice (by two files) is one change, from
 * what was stored to the last text; a rule back in its file after it was removed is added.
 */
function noteChange(
  changes: Map<string, ImportedRuleChange>,
  key: string,
  stored: RuleState | undefined,
  rule: Rule,
  file: string,
): void {
  const earlier = changes.get(key);
  const storedId = stored && 'md5' in stored.text ? stored.id : null;
  changes.set(key, {
    kind: earlier?.kind ?? (storedId === null || stored?.removed ? 'added' : 'changed'),
    gid: rule.gid,
    sid: rule.sid,
    ruleId: earlier?.ruleId ?? storedId,
    file,
    msg: rule.msg ?? '',
    oldRev: earlier ? earlier.oldRev : (stored?.rev ?? null),
    newRev: rule.rev,
    oldText: null,
    newText: rule.text,
  });
}

/** Fills in the stored texts of the rules about to be replaced (one read). */
async function readOldTexts(tx: Queryable, orgId: number, changes: ImportedRuleChange[]) {
  const stored = changes.filter((change) => change.ruleId !== null);
  if (stored.length === 0) return;
  const texts = new Map(
    (
      await repo.texts(
        tx,
        orgId,
        stored.map((change) => change.ruleId ?? -1),
      )
    ).map((row) => [row.id, row.text]),
  );
  for (const change of stored) change.oldText = texts.get(change.ruleId ?? -1) ?? null;
}

const tooLong = (rule: Rule) =>
  `rule ${ruleKey(rule)} has ${rule.text.trim().length} characters, more than the ${RULE_TEXT_MAX} a rule may have`;

/** The id of a rule this import has written or found; each one has one by now. */
function writtenId(state: Map<string, RuleState>, key: string): number {
  const id = state.get(key)?.id;
  if (id === null || id === undefined) throw new Error(`rule ${key} has no id after its write`);
  return id;
}

function sameSet(a: Set<number>, b: Set<number> | undefined): boolean {
  if (!b || a.size !== b.size) return false;
  for (const id of a) if (!b.has(id)) return false;
  return true;
}

/** At most this many warnings are listed in a report; `warning_count` counts them all. */
const MAX_WARNINGS = 1000;

// A new rule's text is never hashed: only a stored one is compared by its MD5.
const sameText = (stored: RuleState, incoming: Rule) =>
  'md5' in stored.text
    ? stored.text.md5 === md5(incoming.text)
    : stored.text.text === incoming.text;

/** An incoming rule older than the stored one (by rev), which it never overwrites. */
const isOlder = (stored: RuleState, incoming: Rule) =>
  stored.rev !== null && incoming.rev !== null && incoming.rev < stored.rev;

/** 'add' a new rule, 'replace' the stored one, or 'keep' it. */
function compare(stored: RuleState | undefined, incoming: Rule): 'add' | 'replace' | 'keep' {
  if (!stored) return 'add';
  if (stored.removed) return 'replace'; // back in a file
  if (sameText(stored, incoming)) return 'keep';
  // An older rev never overwrites a newer one, from whichever file it comes (nor a console edit
  // that raised the rev).
  return isOlder(stored, incoming) ? 'keep' : 'replace';
}

/**
 * What to tell of a rule that another file (or the console) already holds with another text:
 * rules are unique by (gid, sid) in an organization, so one of the two texts is lost.
 */
function collisionOf(
  key: string,
  stored: RuleState,
  incoming: Rule,
  file: string,
  verdict: 'add' | 'replace' | 'keep',
): string | null {
  const revs = `rev ${incoming.rev ?? '-'} here, rev ${stored.rev ?? '-'} stored`;
  // Kept although older means another text (the rev is part of the text).
  if (verdict === 'keep' && isOlder(stored, incoming)) {
    return `rule ${key} is kept as stored (${stored.source}): its rev is newer (${revs})`;
  }
  if (verdict !== 'replace' || stored.removed || stored.source === file) return null;
  return `rule ${key} of ${stored.source} is replaced by this file's text (${revs})`;
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
