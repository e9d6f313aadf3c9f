// modify.conf's replacement is a Python `re.sub` template (suricata-update runs
// `pattern.sub(repl, rule)`): `\1`, `\g<1>` and `\g<name>` insert groups, `\n` and the other C
// escapes insert their character, and `$` is plain text. RE2's own replacement syntax (`$1`)
// would silently leave `\1` in the rule, so templates are read here by Python's rules
// (sre_parse.parse_template, Python 3.11).

/** Literal text, or the number of the group to insert. */
export type ReplacementPart = string | number;

export interface ReplacementTemplate {
  parts: ReplacementPart[];
}

const ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
};
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isOctal = (c: string | undefined) => c !== undefined && c >= '0' && c <= '7';
const IDENTIFIER = /^[\p{L}_][\p{L}\p{N}_]*$/u;

/**
 * Reads a replacement template for a pattern with `groupCount` groups and the given named
 * groups, or says (as Python would) why it cannot be used.
 */
export function parsePythonReplacement(
  template: string,
  groupCount: number,
  namedGroups: Record<string, number>,
): ReplacementTemplate | { error: string } {
  const parts: ReplacementPart[] = [];
  let literal = '';
  const addGroup = (index: number) => {
    if (index > groupCount) return `invalid group reference ${index}`;
    if (literal !== '') parts.push(literal);
    literal = '';
    parts.push(index);
    return undefined;
  };
  let i = 0;
  while (i < template.length) {
    const c = template[i++]!;
    if (c !== '\\') {
      literal += c;
      continue;
    }
    const next = template[i++];
    if (next === undefined) return { error: 'bad escape (end of pattern)' };
    if (next === 'g') {
      if (template[i] !== '<') return { error: 'missing < after \\g' };
      const close = template.indexOf('>', i + 1);
      if (close < 0) return { error: 'missing >, unterminated name' };
      const name = template.slice(i + 1, close);
      i = close + 1;
      if (name === '') return { error: 'missing group name' };
      let index: number;
      if (IDENTIFIER.test(name)) {
        const named = namedGroups[name];
        if (named === undefined) return { error: `unknown group name '${name}'` };
        index = named;
      } else if (/^\d+$/.test(name)) {
        index = Number(name);
      } else {
        return { error: `bad character in group name '${name}'` };
      }
      const problem = addGroup(index);
      if (problem) return { error: problem };
    } else if (next === '0') {
      let digits = '0';
      if (isOctal(template[i])) digits += template[i++];
      if (isOctal(template[i])) digits += template[i++];
      literal += String.fromCharCode(parseInt(digits, 8) & 0xff);
    } else if (isDigit(next)) {
      let digits = next;
      let octal = false;
      if (isDigit(template[i])) {
        digits += template[i++];
        if (isOctal(digits[0]) && isOctal(digits[1]) && isOctal(template[i])) {
          digits += template[i++];
          const code = parseInt(digits, 8);
          if (code > 0o377)
            return { error: `octal escape value \\${digits} outside of range 0-0o377` };
          literal += String.fromCharCode(code);
          octal = true;
        }
      }
      if (!octal) {
        const problem = addGroup(Number(digits));
        if (problem) return { error: problem };
      }
    } else if (ESCAPES[next] !== undefined) {
      literal += ESCAPES[next];
    } else if (/[A-Za-z]/.test(next)) {
      return { error: `bad escape \\${next}` };
    } else {
      literal += `\\${next}`;
    }
  }
  if (literal !== '') parts.push(literal);
  return { parts };
}

/** The replacement for one match: `groups[n]` is group n, undefined when it took no part (→ ''). */
export function expandReplacement(
  template: ReplacementTemplate,
  groups: readonly (string | undefined)[],
): string {
  let out = '';
  for (const part of template.parts) out += typeof part === 'string' ? part : (groups[part] ?? '');
  return out;
}
