import { SafeString, UNSTORABLE_TEXT, type PolicyMatcher } from '@palisade/contract';
import { RE2JS } from 're2js';
import { SLICE_MS, timeSlices } from '../../lib/time-slices.js';
import { compileUserPattern, type UserPattern } from '../../lib/user-pattern.js';
import { parsePythonReplacement, type ReplacementTemplate } from '../../lib/python-replacement.js';

/** What a matcher looks at: a rule of the policy. */
export interface MatchableRule {
  gid: number;
  sid: number;
  text: string;
  /** The rules file it came from, e.g. `emerging-dos.rules`. */
  source: string;
  metadata: readonly { key: string; value: string }[];
}

export type CompiledMatcher = (rule: MatchableRule) => boolean;

/**
 * Compiles one suricata-update matcher: `2019401` (gid 1), `1:2019401`, `group:emerging-dos`
 * (the rules file, with or without `.rules`), `re:heartbleed` (case-insensitive, over the rule
 * text) or `metadata: policy balanced-ips`. Returns an error text for anything else.
 */
export function compileMatcher(matcher: string): CompiledMatcher | { error: string } {
  const text = matcher.trim();
  const sidOnly = /^(\d+)$/.exec(text);
  if (sidOnly) {
    const sid = Number(sidOnly[1]);
    return (rule) => rule.gid === 1 && rule.sid === sid;
  }
  const gidSid = /^(\d+):(\d+)$/.exec(text);
  if (gidSid) {
    const gid = Number(gidSid[1]);
    const sid = Number(gidSid[2]);
    return (rule) => rule.gid === gid && rule.sid === sid;
  }
  const group = /^group:\s*(.+)$/i.exec(text);
  if (group?.[1]) {
    const name = group[1]
      .trim()
      .replace(/\.rules$/i, '')
      .toLowerCase();
    return (rule) => rule.source.replace(/\.rules$/i, '').toLowerCase() === name;
  }
  // suricata-update strips the spaces around the pattern: `re: heartbleed` finds `heartbleed`.
  const re = /^re:\s*(\S.*?)\s*$/i.exec(text);
  if (re?.[1]) {
    // RE2, not RegExp: a user's pattern must not be able to hold the server (user-pattern.ts).
    const pattern = compileUserPattern(re[1], { caseInsensitive: true });
    if ('error' in pattern) return { error: patternError(re[1], pattern.error) };
    return (rule) => pattern.test(rule.text);
  }
  const metadata = /^metadata:\s*(\S+)\s+(.+)$/i.exec(text);
  if (metadata?.[1] && metadata[2]) {
    const key = metadata[1].toLowerCase();
    const value = metadata[2].trim().toLowerCase();
    return (rule) =>
      rule.metadata.some(
        (m) => m.key.toLowerCase() === key && m.value.trim().toLowerCase() === value,
      );
  }
  return {
    error: `not a matcher (expected a sid, gid:sid, group:…, re:… or metadata: …): ${text}`,
  };
}

export interface ConfLineError {
  line: number;
  msg: string;
}

/**
 * Reads an enable.conf, disable.conf, drop.conf or modify.conf file into matchers.
 * modify.conf lines are `<matcher> "<from>" "<to>"`. Gives way to other requests between slices
 * of a long file: each `re:` line is compiled.
 */
export async function parseConfFile(
  kind: PolicyMatcher['kind'],
  text: string,
): Promise<{ matchers: PolicyMatcher[]; errors: ConfLineError[] }> {
  const matchers: PolicyMatcher[] = [];
  const errors: ConfLineError[] = [];
  const slices = timeSlices(SLICE_MS);
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    if (slices.due()) await slices.pause();
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (!SafeString.safeParse(line).success) {
      errors.push({ line: index + 1, msg: UNSTORABLE_TEXT });
      continue;
    }
    if (line.length > MAX_LINE) {
      errors.push({ line: index + 1, msg: `longer than ${MAX_LINE} characters` });
      continue;
    }
    if (kind !== 'modify') {
      const compiled = compileMatcher(line);
      if ('error' in compiled) errors.push({ line: index + 1, msg: compiled.error });
      else matchers.push({ kind, matcher: line });
      continue;
    }
    const modify = MODIFY_LINE.exec(line) as (string | undefined)[] | null;
    if (!modify?.[1]) {
      errors.push({ line: index + 1, msg: 'expected: <matcher> "<from>" "<to>"' });
      continue;
    }
    const compiled = compileMatcher(modify[1]);
    const from = unquote(modify[2] ?? '');
    const to = unquote(modify[3] ?? '');
    const modifyProblem = modifyError(from, to);
    if ('error' in compiled) errors.push({ line: index + 1, msg: compiled.error });
    else if (modifyProblem) errors.push({ line: index + 1, msg: modifyProblem });
    else matchers.push({ kind, matcher: modify[1].trim(), from, to });
  }
  return { matchers, errors };
}

/** A matcher, a pattern and its replacement are at most 2000 characters each. */
const MAX_LINE = 8000;

// `<matcher> "<from>" "<to>"`, on RE2 too: a backtracking engine takes quadratic time over a
// long line of spaces.
const MODIFY_LINE = RE2JS.compile(
  String.raw`^(.+?)\s+"((?:[^"\\]|\\.)*)"\s+"((?:[^"\\]|\\.)*)"\s*$`,
);

const unquote = (text: string) => text.replace(/\\(["\\])/g, '$1');

const patternError = (pattern: string, error: string) =>
  `bad regular expression "${pattern}": ${error}`;

/** modify.conf's pattern (case-sensitive, as suricata-update's re.sub). */
export function modifyPattern(pattern: string): UserPattern | { error: string } {
  return compileUserPattern(pattern, { caseInsensitive: false });
}

/** Why a modify pattern cannot be used, naming it; undefined when it can. */
export function regexError(pattern: string): string | undefined {
  const compiled = modifyPattern(pattern);
  return 'error' in compiled ? patternError(pattern, compiled.error) : undefined;
}

/**
 * modify.conf's replacement for a compiled pattern, read as suricata-update reads it: a Python
 * `re.sub` template, after turning Oinkmaster's `${1}` into `\1`.
 */
export function modifyReplacement(
  pattern: UserPattern,
  replacement: string,
): ReplacementTemplate | { error: string } {
  const template = replacement.replace(/\$\{(\d+)\}/g, '\\$1');
  const parsed = parsePythonReplacement(template, pattern.groupCount(), pattern.namedGroups());
  return 'error' in parsed
    ? { error: `bad replacement "${replacement}": ${parsed.error}` }
    : parsed;
}

/** Why a modify line's pattern or replacement cannot be used, naming it; undefined when it can. */
export function modifyError(from: string, to: string): string | undefined {
  const compiled = modifyPattern(from);
  if ('error' in compiled) return patternError(from, compiled.error);
  const replacement = modifyReplacement(compiled, to);
  return 'error' in replacement ? replacement.error : undefined;
}
