// What a device would receive, as differences: the version history's compare functions
// (lib/render-diff.ts), cut to a preview's size.

import {
  PREVIEW_DIFF_MAX_CHARS,
  PREVIEW_RULES_LISTED,
  type PreviewPolicyChange,
  type PreviewRule,
  type PreviewTextDiff,
  type PreviewVariablesChange,
} from '@palisade/contract';
import * as compare from '../../lib/render-diff.js';

/** A unified diff of two scripts (null: no script), or null when they are the same. */
export function textDiff(
  name: string,
  before: string | null,
  after: string | null,
): PreviewTextDiff | null {
  const { unified } = compare.textDiff(before ?? '', after ?? '', { names: [name, name] });
  if (unified === '') return null;
  return unified.length > PREVIEW_DIFF_MAX_CHARS
    ? { diff: unified.slice(0, PREVIEW_DIFF_MAX_CHARS), truncated: true }
    : { diff: unified, truncated: false };
}

const MSG = /(?:^|[(;])\s*msg\s*:\s*"((?:[^"\\]|\\.)*)"/;

const named = ({ key, text }: { key: string; text: string }): PreviewRule => {
  const [gid, sid] = key.split(':').map(Number);
  return { gid: gid ?? 1, sid: sid ?? 0, msg: MSG.exec(text.slice(text.indexOf('(')))?.[1] ?? '' };
};

type RulesChange = Pick<
  PreviewPolicyChange,
  'added' | 'removed' | 'changed' | 'added_rules' | 'removed_rules' | 'changed_rules'
>;

/** Rules added, removed and changed (same gid:sid, other text) between two rendered files. */
export function rulesDiff(before: string, after: string): RulesChange {
  const diff = compare.rulesDiff(before, after, { limit: PREVIEW_RULES_LISTED });
  return {
    added: diff.counts.added,
    removed: diff.counts.removed,
    changed: diff.counts.changed,
    added_rules: diff.added.map(named),
    removed_rules: diff.removed.map(named),
    changed_rules: diff.changed.map((rule) => named({ key: rule.key, text: rule.new })),
  };
}

/** Profile variables added, removed and changed; null when they are the same. */
export function variablesDiff(
  before: Record<string, string>,
  after: Record<string, string>,
): PreviewVariablesChange | null {
  const diff = compare.variablesDiff(before, after);
  const moved = diff.added.length + diff.removed.length + diff.changed.length > 0;
  return moved ? diff : null;
}
