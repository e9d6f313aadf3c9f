import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { expandReplacement, parsePythonReplacement } from './python-replacement.js';
import { compileUserPattern } from './user-pattern.js';

// Python's own re.sub is the reference: suricata-update applies modify.conf with it.
const python = spawnSync('python3', ['--version']).status === 0;
if (!python) console.log('python re.sub agreement skipped: python3 not found');

const PATTERN = String.raw`(?P<head>alert) (\w+) (any)?(x)?`;
const SUBJECT = 'alert tcp any any -> any 80 (msg:"$HOME"; sid:1;)';
const TEMPLATES = [
  String.raw`\1`,
  String.raw`\2 \1`,
  String.raw`\g<2>\g<head>\g<0>`,
  String.raw`\4[\3]`,
  String.raw`\10`,
  String.raw`\101`,
  String.raw`\0\012\n\t\\`,
  String.raw`\.\$ $1 ${2}`,
  String.raw`\q`,
  String.raw`\g<nope>`,
  String.raw`\g<2`,
  String.raw`\5`,
  'trailing \\',
  'plain drop',
];

function ours(template: string): string {
  const pattern = compileUserPattern(PATTERN, { caseInsensitive: false });
  if ('error' in pattern) throw new Error(pattern.error);
  const parsed = parsePythonReplacement(template, pattern.groupCount(), pattern.namedGroups());
  if ('error' in parsed) return 'ERROR';
  return pattern
    .matcher(SUBJECT)
    .replaceAll((...groups: (string | undefined)[]) => expandReplacement(parsed, groups));
}

function pythons(templates: string[]): string[] {
  const script = `
import json, re, sys
pattern, subject, templates = json.load(sys.stdin)
out = []
for t in templates:
    try:
        out.append(re.sub(pattern, t, subject))
    except (re.error, IndexError):
        out.append("ERROR")
print(json.dumps(out))`;
  const run = spawnSync('python3', ['-c', script], {
    input: JSON.stringify([PATTERN, SUBJECT, templates]),
    encoding: 'utf8',
  });
  return JSON.parse(run.stdout) as string[];
}

describe('modify.conf replacement templates', () => {
  it.skipIf(!python)('expand exactly as Python re.sub does, errors included', () => {
    expect(TEMPLATES.map(ours)).toEqual(pythons(TEMPLATES));
  });

  it('insert groups by number and name, and keep $ as text', () => {
    const parsed = parsePythonReplacement(String.raw`\g<x>-\1-$1`, 1, { x: 1 });
    expect(parsed).toEqual({ parts: [1, '-', 1, '-$1'] });
    expect('error' in parsed ? '' : expandReplacement(parsed, ['ab', 'a'])).toBe('a-a-$1');
  });

  it('name what is wrong', () => {
    expect(parsePythonReplacement(String.raw`\3`, 2, {})).toEqual({
      error: 'invalid group reference 3',
    });
    expect(parsePythonReplacement(String.raw`\d`, 0, {})).toEqual({ error: 'bad escape \\d' });
  });
});
