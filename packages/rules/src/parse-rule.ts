// One rule: header, then options, over the logical text (continuations joined).

import type { Failure } from './failure.js';
import { isFailure } from './failure.js';
import { parseHeader } from './header.js';
import type { Header } from './header.js';
import { locate, toLogical } from './logical-text.js';
import type { LogicalText } from './logical-text.js';
import { parseOptions } from './options.js';
import type { OptionFields } from './options.js';
import type { Diagnostic, ParseRuleOptions, ParseRuleResult, Rule } from './types.js';

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

function makeRule(text: string, line: number, header: Header, fields: OptionFields): Rule {
  return {
    text,
    line,
    enabled: header.enabled,
    action: header.action,
    protocol: header.protocol,
    source: header.source,
    direction: header.direction,
    destination: header.destination,
    options: fields.options,
    msg: fields.msg,
    gid: fields.gid,
    sid: fields.sid,
    rev: fields.rev,
    classtype: fields.classtype,
    priority: fields.priority,
    metadata: fields.metadata,
    references: fields.references,
    flowbits: fields.flowbits,
  };
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
  const header = parseHeader(s);
  if (isFailure(header)) return { failure: header, logical };
  const fields = parseOptions(s, header.optionsStart);
  if (isFailure(fields)) return { failure: fields, logical };
  const rule = makeRule(text, line, header, fields);
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
