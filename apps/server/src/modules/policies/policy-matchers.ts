import { SafeString, UNSTORABLE_TEXT, type PolicyMatcher } from '@palisade/contract';

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
  const re = /^re:(.+)$/i.exec(text);
  if (re?.[1]) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(re[1], 'i');
    } catch (error) {
      return { error: `bad regular expression: ${(error as Error).message}` };
    }
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
 * modify.conf lines are `<matcher> "<from>" "<to>"`.
 */
export function parseConfFile(
  kind: PolicyMatcher['kind'],
  text: string,
): { matchers: PolicyMatcher[]; errors: ConfLineError[] } {
  const matchers: PolicyMatcher[] = [];
  const errors: ConfLineError[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (!SafeString.safeParse(line).success) {
      errors.push({ line: index + 1, msg: UNSTORABLE_TEXT });
      return;
    }
    if (kind !== 'modify') {
      const compiled = compileMatcher(line);
      if ('error' in compiled) errors.push({ line: index + 1, msg: compiled.error });
      else matchers.push({ kind, matcher: line });
      return;
    }
    const modify = /^(.+?)\s+"((?:[^"\\]|\\.)*)"\s+"((?:[^"\\]|\\.)*)"\s*$/.exec(line);
    if (!modify?.[1]) {
      errors.push({ line: index + 1, msg: 'expected: <matcher> "<from>" "<to>"' });
      return;
    }
    const compiled = compileMatcher(modify[1]);
    const from = unquote(modify[2] ?? '');
    if ('error' in compiled) errors.push({ line: index + 1, msg: compiled.error });
    else if (regexError(from))
      errors.push({ line: index + 1, msg: `bad regular expression: ${regexError(from)}` });
    else matchers.push({ kind, matcher: modify[1].trim(), from, to: unquote(modify[3] ?? '') });
  });
  return { matchers, errors };
}

const unquote = (text: string) => text.replace(/\\(["\\])/g, '$1');

export function regexError(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
