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

function actionEnd(text: string, start: number): number {
  let i = start;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isBlank(c) || c === 40 || c === 10 || c === 13) break;
    i++;
  }
  return i;
}

/**
 * The rule as text. Unmodified: `rule.text` itself. Action changed: the new action in place of
 * the old one. Disabled: `# ` before the rule (a rule written over several lines is first joined
 * into one, so that no continuation line is left uncommented). Enabled: the `#`s removed.
 */
export function formatRule(rule: FormattableRule): string {
  const { text } = rule;
  const prefix = skipDisabledPrefix(text);
  const end = actionEnd(text, prefix.start);
  const oldAction = text.slice(prefix.start, end);
  if (prefix.enabled === rule.enabled && oldAction === rule.action) return text;
  const body = rule.action + text.slice(end);
  if (rule.enabled) return text.slice(0, leadingBlanks(text)) + body;
  if (!prefix.enabled) return text.slice(0, prefix.start) + body;
  const multiLine = body.indexOf('\n') >= 0 || body.indexOf('\r') >= 0;
  const oneLine = multiLine ? toLogical(body).text.trimEnd() : body;
  return `${text.slice(0, leadingBlanks(text))}# ${oneLine}`;
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
