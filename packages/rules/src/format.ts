// Writing rules back. The text is the source of truth: an unmodified rule gives back its text
// exactly. A rule whose `enabled` or `action` was changed gets exactly that edit spliced into
// its text, everything else byte for byte. `buildRuleText` writes a rule from its fields.

import { skipDisabledPrefix } from './header.js';
import { isBlank, toLogical } from './logical-text.js';
import type { Direction, Endpoint, RuleOption } from './types.js';

/** The fields `formatRule` reads: the text, and the two that may differ from it. */
export interface FormattableRule {
  text: string;
  enabled: boolean;
  action: string;
}

/** Where a rule text's comment marker ends and its action is. */
interface ActionAt {
  enabled: boolean;
  start: number;
  end: number;
  action: string;
}

function findAction(text: string): ActionAt {
  const { enabled, start } = skipDisabledPrefix(text);
  let end = start;
  while (end < text.length) {
    const c = text.charCodeAt(end);
    if (isBlank(c) || c === 40 || c === 10 || c === 13) break;
    end++;
  }
  return { enabled, start, end, action: text.slice(start, end) };
}

/** `text` with the comment marker and action of `rule` in place of those found at `at`. */
function edit(text: string, at: ActionAt, rule: FormattableRule): string {
  const body = rule.action + text.slice(at.end);
  if (rule.enabled) return text.slice(0, leadingBlanks(text)) + body;
  if (!at.enabled) return text.slice(0, at.start) + body;
  return `${text.slice(0, leadingBlanks(text))}# ${body}`;
}

/**
 * The rule as text. Unmodified: `rule.text` itself. Action changed: the new action in place of
 * the old one. Disabled: `# ` before the rule. Enabled: the `#`s removed. A rule written over
 * several lines keeps its lines when the edit is on its first line and leaves every line as
 * live or as commented as before; otherwise (disabling it, or a comment marker on a line of its
 * own) it is joined onto one line first, so no continuation line is left uncommented.
 */
export function formatRule(rule: FormattableRule): string {
  const { text } = rule;
  const multiLine = text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0;
  const logical = multiLine ? toLogical(text).text.trimEnd() : text;
  const found = findAction(logical);
  if (found.enabled === rule.enabled && found.action === rule.action) return text;
  if (!multiLine) return edit(text, found, rule);
  const raw = findAction(text);
  const sameStart = raw.action === found.action && raw.enabled === found.enabled;
  // A text whose last line is empty (it ends in a line break) would not stand alone.
  const last = text.charCodeAt(text.length - 1);
  const standsAlone = last !== 10 && last !== 13;
  if (sameStart && standsAlone && (rule.enabled || !found.enabled)) return edit(text, raw, rule);
  return edit(logical, found, rule);
}

function leadingBlanks(text: string): number {
  let i = 0;
  while (i < text.length && isBlank(text.charCodeAt(i))) i++;
  return i;
}

/** The fields `buildRuleText` needs. */
export interface RuleFields {
  enabled: boolean;
  action: string;
  protocol: string | null;
  source: Endpoint | null;
  direction: Direction | null;
  destination: Endpoint | null;
  options: readonly RuleOption[];
}

/** A one-line rule written from its fields: `alert tcp a p -> b q (k:v; k2;)`. */
export function buildRuleText(fields: RuleFields): string {
  const header: string[] = [fields.action];
  if (fields.protocol !== null) {
    header.push(fields.protocol);
    if (fields.source !== null && fields.destination !== null) {
      header.push(
        fields.source.address,
        fields.source.port,
        fields.direction ?? '->',
        fields.destination.address,
        fields.destination.port,
      );
    }
  }
  const options = fields.options
    .map((option) =>
      option.value === null ? `${option.keyword};` : `${option.keyword}:${option.value};`,
    )
    .join(' ');
  return `${fields.enabled ? '' : '# '}${header.join(' ')} (${options})`;
}
