// classification.config: `config classification: shortname,description,priority` per line,
// `#` comments and blank lines. The description runs to the last comma, as Suricata reads it.

import { isBlank, trimEnd } from './logical-text.js';
import type { Diagnostic, ParseClassificationResult, ParseOptions } from './types.js';

const PREFIX_WORDS = ['config', 'classification'] as const;

function isNameChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45 || c === 95
  );
}

function skipBlanks(text: string, i: number, end: number): number {
  while (i < end && isBlank(text.charCodeAt(i))) i++;
  return i;
}

type LineResult =
  { name: string; description: string; priority: number } | { offset: number; message: string };

function parseLine(text: string, start: number, end: number): LineResult {
  let i = start;
  for (const word of PREFIX_WORDS) {
    i = skipBlanks(text, i, end);
    if (!text.startsWith(word, i)) {
      return { offset: i, message: `expected 'config classification: name,description,priority'` };
    }
    i += word.length;
  }
  i = skipBlanks(text, i, end);
  if (text.charCodeAt(i) !== 58 /* : */) return { offset: i, message: "expected ':'" };
  i = skipBlanks(text, i + 1, end);
  const nameStart = i;
  while (i < end && isNameChar(text.charCodeAt(i))) i++;
  const name = text.slice(nameStart, i);
  if (name.length === 0) return { offset: i, message: 'the classtype name is missing' };
  i = skipBlanks(text, i, end);
  if (text.charCodeAt(i) !== 44 /* , */) {
    return { offset: i, message: `expected ',' after classtype '${name}'` };
  }
  const lastComma = text.lastIndexOf(',', end - 1);
  if (lastComma <= i) return { offset: end, message: `classtype '${name}' has no priority` };
  const description = text.slice(i + 1, lastComma).trim();
  if (description.length === 0) {
    return { offset: i + 1, message: `classtype '${name}' has no description` };
  }
  const priorityText = text.slice(lastComma + 1, end).trim();
  if (!/^\d{1,9}$/.test(priorityText)) {
    return { offset: lastComma + 1, message: `priority '${priorityText}' is not a number` };
  }
  return { name, description, priority: Number(priorityText) };
}

/** Reads a classification.config; bad lines give diagnostics and are skipped. */
export function parseClassificationConfig(
  text: string,
  options: ParseOptions = {},
): ParseClassificationResult {
  const classifications: ParseClassificationResult['classifications'] = new Map();
  const diagnostics: Diagnostic[] = [];
  const report = (diagnostic: Diagnostic): void => {
    if (options.fileName !== undefined) diagnostic.fileName = options.fileName;
    diagnostics.push(diagnostic);
  };
  let pos = 0;
  let line = 0;
  while (pos < text.length) {
    line++;
    const nl = text.indexOf('\n', pos);
    const lineStart = pos;
    const end = trimEnd(text, pos, nl < 0 ? text.length : nl);
    pos = nl < 0 ? text.length : nl + 1;
    const first = skipBlanks(text, lineStart, end);
    if (first === end || text.charCodeAt(first) === 35 /* # */) continue;
    const result = parseLine(text, first, end);
    if ('offset' in result) {
      const column = result.offset - lineStart + 1;
      report({
        severity: 'error',
        code: 'bad-classification',
        message: result.message,
        line,
        column,
      });
      continue;
    }
    if (classifications.has(result.name)) {
      report({
        severity: 'warning',
        code: 'duplicate-classification',
        message: `classtype '${result.name}' is defined again; the later definition wins`,
        line,
        column: first - lineStart + 1,
      });
    }
    classifications.set(result.name, {
      description: result.description,
      priority: result.priority,
    });
  }
  return { classifications, diagnostics };
}
