// One rule: header, then options, over the logical text (continuations joined).

import { CharIndex } from './char-index.js';
import type { Failure } from './failure.js';
import { isFailure } from './failure.js';
import { parseHeader } from './header.js';
import { locate, toLogical } from './logical-text.js';
import type { LogicalText } from './logical-text.js';
import {
  NO_FLOWBITS,
  NO_METADATA,
  NO_REFERENCES,
  parseOptions,
  readOptionList,
} from './options.js';
import type { Diagnostic, ParseRuleOptions, ParseRuleResult, Rule, RuleOption } from './types.js';

export function toDiagnostic(
  logical: LogicalText,
  failure: Failure,
  firstLine: number,
  fileName: string | undefined,
): Diagnostic {
  const { lineIndex, column } = locate(logical, failure.offset);
  const diagnostic: Diagnostic = {
    severity: 'error',
    code: failure.code,
    message: failure.message,
    line: firstLine + lineIndex,
    column,
  };
  if (fileName !== undefined) diagnostic.fileName = fileName;
  return diagnostic;
}

/**
 * Every option of a parsed rule, in order: keyword and raw value (quotes and escapes kept),
 * read again from its text. A `Rule` does not carry them: an import reads only the well-known
 * fields, and one object per option of every rule was most of the cost of parsing a file.
 * `[]` for a text that is not a rule.
 */
export function ruleOptions(rule: { text: string }): RuleOption[] {
  const { text: s } = toLogical(rule.text);
  const header = parseHeader(s, 0, s.length);
  return isFailure(header) ? [] : readOptionList(s, header.optionsStart, s.length);
}

/**
 * Parses the rule in s[from, end): a line of a file (`s` the whole file, no copy made) or a
 * logical text. `text` is the rule as written; failure offsets are offsets in `s`. `index`
 * is shared by the rules of one file.
 */
export function parseRuleAt(
  s: string,
  from: number,
  end: number,
  text: string,
  line: number,
  index: CharIndex = new CharIndex(s),
): Rule | Failure {
  const header = parseHeader(s, from, end, index);
  if (isFailure(header)) return header;
  // The rule is filled in place by the option reader: no intermediate objects per rule.
  const rule: Rule = {
    text,
    line,
    enabled: header.enabled,
    action: header.action,
    protocol: header.protocol,
    source: header.source,
    direction: header.direction,
    destination: header.destination,
    msg: null,
    gid: 1,
    sid: -1,
    rev: null,
    classtype: null,
    priority: null,
    metadata: NO_METADATA,
    references: NO_REFERENCES,
    flowbits: NO_FLOWBITS,
  };
  return parseOptions(s, header.optionsStart, end, index, rule);
}

/** Parses the rule in `text`; returns the rule or the failure (no diagnostic objects built). */
export function parseRuleCore(
  text: string,
  line: number,
): { rule: Rule } | { failure: Failure; logical: LogicalText } {
  const logical = toLogical(text);
  const s = logical.text;
  if (logical.strayBreak >= 0) {
    const failure: Failure = {
      failed: true,
      offset: logical.strayBreak,
      code: 'trailing-text',
      message: 'a rule is one line: end a line with \\ to continue it on the next',
    };
    return { failure, logical };
  }
  const rule = parseRuleAt(s, 0, s.length, text, line);
  if (isFailure(rule)) return { failure: rule, logical };
  return { rule };
}

/**
 * Parses one rule (possibly commented out, possibly over several lines joined by `\`).
 * Never throws: a text that is not a rule gives `rule: null` and a diagnostic saying why.
 */
export function parseRule(text: string, options: ParseRuleOptions = {}): ParseRuleResult {
  const line = options.line ?? 1;
  const result = parseRuleCore(text, line);
  if ('rule' in result) return { rule: result.rule, diagnostics: [] };
  return {
    rule: null,
    diagnostics: [toDiagnostic(result.logical, result.failure, line, options.fileName)],
  };
}
