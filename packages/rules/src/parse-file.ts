// A rules file: one rule per logical line, `#` comments, blank lines, `\` continuations.
// A commented-out line that parses as a rule is a disabled rule; any other comment is ignored.
// An uncommented line that is not a valid rule gives an error diagnostic and no rule.

import { CharIndex } from './char-index.js';
import { checkAction } from './header.js';
import { isBlank, LineReader, toLogical, trimEnd } from './logical-text.js';
import { isFailure } from './failure.js';
import { parseRuleAt, parseRuleCore, toDiagnostic } from './parse-rule.js';
import type { Diagnostic, ParseOptions, ParseRulesFileResult, Rule } from './types.js';

/** True when the text after the `#`s starts with a rule action (`# alert …`, `#drop:flow …`). */
function looksLikeDisabledRule(text: string, start: number, end: number): boolean {
  let i = start;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c !== 35 && !isBlank(c)) break;
    i++;
  }
  const wordStart = i;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (isBlank(c) || c === 40) break;
    i++;
  }
  if (i === wordStart || i - wordStart > 64) return false;
  return checkAction(text.slice(wordStart, i)) === null;
}

export function parseRulesFile(text: string, options: ParseOptions = {}): ParseRulesFileResult {
  const { fileName } = options;
  const rules: Rule[] = [];
  const diagnostics: Diagnostic[] = [];
  const n = text.length;
  const lines = new LineReader(text);
  const index = new CharIndex(text);
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0; // byte-order mark
  let lineNo = 1;
  while (pos < n) {
    const unitStart = pos;
    const unitLine = lineNo;
    let unitEnd: number;
    let lineStart: number;
    let dangling = -1;
    for (;;) {
      lineStart = pos;
      lines.read(pos);
      pos = lines.next;
      lineNo++;
      unitEnd = lines.end;
      const last = trimEnd(text, lineStart, unitEnd);
      if (last === lineStart || text.charCodeAt(last - 1) !== 92 /* \ */) break;
      if (pos >= n) {
        dangling = last - 1;
        break;
      }
    }
    let first = unitStart;
    while (first < unitEnd && isBlank(text.charCodeAt(first))) first++;
    if (first === unitEnd) continue; // blank line
    const commented = text.charCodeAt(first) === 35; /* # */
    // A continued comment is judged on its joined text, by parsing it.
    const continued = lineNo - unitLine > 1;
    if (commented && !continued && !looksLikeDisabledRule(text, first, unitEnd)) continue;
    const unit = text.slice(unitStart, unitEnd);
    if (dangling >= 0) {
      if (!commented) {
        const logical = toLogical(unit);
        const lines = logical.lineStarts?.length ?? 1;
        const diagnostic: Diagnostic = {
          severity: 'error',
          code: 'dangling-continuation',
          message: 'the file ends inside a rule: its last line ends with \\',
          line: unitLine + lines - 1,
          column: dangling - lineStart + 1,
        };
        if (fileName !== undefined) diagnostic.fileName = fileName;
        diagnostics.push(diagnostic);
      }
      continue;
    }
    if (continued) {
      const result = parseRuleCore(unit, unitLine);
      if ('rule' in result) rules.push(result.rule);
      else if (!commented) {
        diagnostics.push(toDiagnostic(result.logical, result.failure, unitLine, fileName));
      }
      continue;
    }
    // One physical line: parsed where it stands in the file, without a copy to scan.
    const rule = parseRuleAt(text, unitStart, unitEnd, unit, unitLine, index);
    if (!isFailure(rule)) rules.push(rule);
    else if (!commented) {
      const failure = { ...rule, offset: rule.offset - unitStart };
      const logical = { text: unit, lineStarts: null, strayBreak: -1 };
      diagnostics.push(toDiagnostic(logical, failure, unitLine, fileName));
    }
  }
  return { rules, diagnostics };
}
