import { describe, expect, it } from 'vitest';
import { formatDiagnostic, parseRulesFile } from './index.js';

const FILE = [
  '# Suricata event rules',
  '#',
  '# This file is a comment (with parens) and an "alert" word',
  '',
  'alert ip any any -> any any (msg:"one"; sid:1; rev:1;)',
  '#alert ip any any -> any any (msg:"two, disabled"; sid:2;)',
  '   # drop ip any any -> any any (msg:"three, indented"; sid:3;)',
  'alert dnp3 any any -> any any (msg:"four"; \\',
  '      app-layer-event:dnp3.flooded; \\',
  '      sid:4;)',
  'not a rule at all',
  '# alert this is an English sentence, not a rule (really)',
  'alert tcp any any -> any any (msg:"five"; sid:5;)\r',
  'alert tcp any any -> any any (msg:"six"; sid:6;)',
].join('\n');

describe('parseRulesFile', () => {
  const { rules, diagnostics } = parseRulesFile(FILE, { fileName: 'events.rules' });

  it('finds enabled, disabled and continued rules with their first line', () => {
    expect(rules.map((r) => [r.sid, r.line, r.enabled])).toEqual([
      [1, 5, true],
      [2, 6, false],
      [3, 7, false],
      [4, 8, true],
      [5, 13, true],
      [6, 14, true],
    ]);
    expect(rules[3]?.text.split('\n')).toHaveLength(3);
    expect(rules[4]?.text.endsWith(')')).toBe(true);
  });

  it('reports the line that is not a rule and ignores comments', () => {
    expect(diagnostics).toEqual([
      {
        severity: 'error',
        code: 'unknown-action',
        message: "unknown action 'not'",
        fileName: 'events.rules',
        line: 11,
        column: 1,
      },
    ]);
    expect(diagnostics.map(formatDiagnostic)).toEqual([
      "events.rules:11:1: error: unknown-action: unknown action 'not'",
    ]);
  });

  it('reads a comment continued onto a rule as one disabled rule, as suricata-update does', () => {
    const result = parseRulesFile(
      '# \\\nalert ip any any -> any any (sid:1;)\n# just \\\n a comment\n',
    );
    expect(result.rules.map((r) => [r.line, r.enabled, r.sid])).toEqual([[1, false, 1]]);
    expect(result.diagnostics).toEqual([]);
  });

  it('handles a byte-order mark, an empty file and a missing final newline', () => {
    expect(parseRulesFile('').rules).toEqual([]);
    expect(parseRulesFile('\n\n').rules).toEqual([]);
    const { rules: bom } = parseRulesFile('\ufeffalert ip any any -> any any (sid:1;)');
    expect(bom[0]?.sid).toBe(1);
  });

  it('reports a file that ends inside a continued rule', () => {
    const result = parseRulesFile(
      'alert ip any any -> any any (sid:1;)\nalert ip any any -> \\\n',
      {
        fileName: 'x.rules',
      },
    );
    expect(result.rules).toHaveLength(1);
    expect(result.diagnostics).toMatchObject([
      { code: 'dangling-continuation', line: 2, column: 21, fileName: 'x.rules' },
    ]);
  });

  it('gives each bad line its own diagnostic and keeps going', () => {
    const text = Array.from({ length: 50 }, (_, i) =>
      i % 2 === 0
        ? `alert tcp any any -> any any (sid:${i + 1};)`
        : `alert tcp any any -> any (sid:${i + 1};)`,
    ).join('\n');
    const result = parseRulesFile(text);
    expect(result.rules).toHaveLength(25);
    expect(result.diagnostics.map((d) => d.line)).toEqual(
      Array.from({ length: 25 }, (_, i) => 2 * i + 2),
    );
  });
});
