import { describe, expect, it } from 'vitest';
import { RE2JS } from 're2js';
import {
  compileUserPattern,
  estimateSize,
  fromPython,
  MAX_PATTERN_SIZE,
  type UserPattern,
} from './user-pattern.js';

const compiled = (pattern: string, caseInsensitive = true): UserPattern => {
  const result = compileUserPattern(pattern, { caseInsensitive });
  if ('error' in result) throw new Error(`${pattern}: ${result.error}`);
  return result;
};
const refusal = (pattern: string) => {
  const result = compileUserPattern(pattern, { caseInsensitive: true });
  return 'error' in result ? result.error : undefined;
};

describe('user patterns', () => {
  it('match catastrophic-backtracking patterns correctly over long texts', () => {
    // A backtracking engine needs about 2^n steps for each of these on n a's without a b.
    const hostile = ['(a|a)*b', '(a+)+b', '(a|aa)+$b', '((a*)*)*b', '(\\w+\\s*)*b'];
    const rule = (msg: string) => `alert tcp any any -> any any (msg:"${msg}"; sid:1;)`;
    for (const pattern of hostile) {
      expect(compiled(pattern).test(rule('a'.repeat(5000))), pattern).toBe(false);
      expect(compiled(pattern).test(rule(`${'a'.repeat(5000)}B`)), pattern).toBe(
        pattern !== '(a|aa)+$b',
      );
    }
  });

  it('search anywhere in the text, case-insensitively, as suricata-update re: does', () => {
    const rule = 'alert tcp any any -> any 443 (msg:"ET EXPLOIT Heartbleed probe"; sid:7;)';
    expect(compiled('heartbleed').test(rule)).toBe(true);
    expect(compiled('^alert tcp .* 443 ').test(rule)).toBe(true);
    expect(compiled('msg:"ET (POLICY|TROJAN)').test(rule)).toBe(false);
    expect(compiled('heartbleed', false).test(rule)).toBe(false);
  });

  it('read Python spellings RE2 writes otherwise', () => {
    expect(fromPython('sid:7;\\)\\Z')).toBe('sid:7;\\)\\z');
    expect(fromPython('\\\\Z[\\Z]')).toBe('\\\\Z[\\Z]');
    expect(fromPython('\\u00e9\\U0001F600')).toBe('\\x{00e9}\\x{0001F600}');
    expect(fromPython('a{,3}[{,3}]')).toBe('a{0,3}[{,3}]');
    expect(compiled('sid:7;\\)\\Z').test('x (sid:7;)')).toBe(true);
    expect(compiled('(?P<word>caf\\u00e9)').test('le Café')).toBe(true);
    expect(compiled('^x{,2}y').test('xxy')).toBe(true);
    expect(compiled('(?i)\\bSID:\\d+').test('sid:12')).toBe(true);
  });

  it('refuse what cannot run in linear time, saying why', () => {
    expect(refusal('(a)\\1')).toMatch(/\\1.*backreferences and lookaround/);
    expect(refusal('(?P<x>a)(?P=x)')).toMatch(/backreferences and lookaround/);
    expect(refusal('foo(?=bar)')).toMatch(/backreferences and lookaround/);
    expect(refusal('foo(?!bar)')).toMatch(/backreferences and lookaround/);
    expect(refusal('(?<=foo)bar')).toMatch(/backreferences and lookaround/);
    expect(refusal('(?<!foo)bar')).toMatch(/backreferences and lookaround/);
    expect(refusal('([')).toMatch(/missing/);
    expect(refusal('a{1001}')).toMatch(/repeat count/);
    expect(refusal('x'.repeat(2001))).toMatch(/longer than 2000/);
  });

  it('refuse a pattern whose repetitions make every match slow, before building it', () => {
    expect(refusal('[a-z]{1000}x')).toBeUndefined();
    expect(refusal('[a-z]{1000}[0-9]{1000}x')).toMatch(/too complex/);
    expect(refusal('(?:.?){1000}(?:.?){1000}')).toMatch(/too complex/);
    // Each group alone is valid RE2 and would take seconds to compile: refused on the estimate.
    const huge = '(?:\\w{1,1000})'.repeat(130);
    expect(estimateSize(huge)).toBeGreaterThan(4 * MAX_PATTERN_SIZE);
    expect(refusal(huge)).toMatch(/too complex/);
  });

  it('estimate program sizes within a factor of four of what RE2 compiles', () => {
    const patterns = [
      'heartbleed',
      '(a|a)*b',
      'ET (POLICY|TROJAN|MALWARE) ',
      '[a-z]{1000}x',
      '(?:.?){1000}',
      '(x{100}){10}',
      '(?P<n>ab){3,}',
      '\\bsid:\\d{1,7}\\b',
      '[]a-z[:digit:]\\]]{20}',
      '\\Qa.b{100}\\E{3}',
      '\\x{41}{500}\\p{Greek}{100}',
      '(?i:abc){200}|(?s:.){300}',
    ];
    for (const pattern of patterns) {
      const actual = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE).programSize();
      const estimate = estimateSize(pattern);
      expect(estimate, pattern).toBeGreaterThanOrEqual(actual / 4);
      expect(estimate, pattern).toBeLessThanOrEqual(actual * 4);
    }
  });
});
