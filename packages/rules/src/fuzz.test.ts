// Property tests: random and mutated input never throws, diagnostics stay in range, and rules
// written from random fields parse back to those fields.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildRuleText,
  formatRule,
  parseAddressSpec,
  parseClassificationConfig,
  parsePortSpec,
  parseRule,
  parseRulesFile,
  ruleOptions,
} from './index.js';
import type { Diagnostic, RuleOption } from './index.js';
import { NEEDS_CORPUS, corpusForTests } from '../../../testing/corpus.mjs';
import { loadCorpusRuleFiles } from './testing/corpus.js';

// Property runs: generous limits for a loaded CI machine (tests never assert on time).
const HEAVY = { timeout: 60_000 };

const SPECIAL = [
  ';',
  '"',
  '\\',
  '(',
  ')',
  '[',
  ']',
  '!',
  ':',
  '#',
  ',',
  '\n',
  ' ',
  '\t',
  '$',
  '-',
  '>',
];

/** Real rule lines to mutate: the corpus's, when it is there (the tests using them say so). */
const withCorpus = corpusForTests('rules');
const corpusLines: string[] = withCorpus
  ? loadCorpusRuleFiles()
      .filter((file) => !file.name.includes('!'))
      .flatMap((file) => parseRulesFile(file.text).rules.map((rule) => rule.text))
  : [];
/** The index of a corpus line (0 when there are none: no test then draws one). */
const corpusIndex = fc.nat({ max: Math.max(0, corpusLines.length - 1) });

function checkDiagnostics(text: string, diagnostics: Diagnostic[]): void {
  const lines = text.split(/\r\n|\r|\n/).length;
  for (const d of diagnostics) {
    expect(d.line).toBeGreaterThanOrEqual(1);
    expect(d.line).toBeLessThanOrEqual(lines);
    expect(d.column).toBeGreaterThanOrEqual(1);
    expect(d.message.length).toBeGreaterThan(0);
  }
}

type Mutation = { at: number; kind: 'delete' | 'insert' | 'truncate'; char: string };

const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('delete', 'insert', 'truncate'),
  char: fc.oneof(fc.constantFrom(...SPECIAL), fc.string({ maxLength: 1, unit: 'binary' })),
});

function mutate(text: string, mutations: Mutation[]): string {
  let out = text;
  for (const { at, kind, char } of mutations) {
    const i = out.length === 0 ? 0 : at % out.length;
    if (kind === 'delete') out = out.slice(0, i) + out.slice(i + 1);
    else if (kind === 'insert') out = out.slice(0, i) + char + out.slice(i);
    else out = out.slice(0, i);
  }
  return out;
}

describe('fuzz: never throws', () => {
  it('parses arbitrary text as a file', HEAVY, () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400, unit: 'binary' }), (text) => {
        const { diagnostics } = parseRulesFile(text, { fileName: 'fuzz.rules' });
        checkDiagnostics(text.replace(/^\ufeff/, ''), diagnostics);
      }),
      { numRuns: 2000 },
    );
  });

  it('parses text built from rule punctuation', HEAVY, () => {
    const token = fc.oneof(
      fc.constantFrom(...SPECIAL),
      fc.constantFrom(
        'alert',
        'tcp',
        'any',
        '->',
        'msg:',
        'sid:1',
        'content:"',
        '$HOME_NET',
        '80:',
      ),
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 60 }), (tokens) => {
        const text = tokens.join('');
        checkDiagnostics(text, parseRulesFile(text).diagnostics);
        const single = parseRule(text);
        checkDiagnostics(text, single.diagnostics);
        expect(single.rule === null).toBe(single.diagnostics.length > 0);
      }),
      { numRuns: 3000 },
    );
  });

  it.runIf(withCorpus)(
    `parses mutated real rules; what still parses round-trips and toggles ${NEEDS_CORPUS}`,
    HEAVY,
    () => {
      expect(corpusLines.length).toBeGreaterThan(0);
      fc.assert(
        fc.property(
          corpusIndex,
          fc.array(mutation, { minLength: 1, maxLength: 4 }),
          (index, mutations) => {
            const text = mutate(corpusLines[index] ?? '', mutations);
            const { rule, diagnostics } = parseRule(text);
            checkDiagnostics(text, diagnostics);
            if (rule === null) return;
            expect(formatRule(rule)).toBe(text);
            const toggled = parseRule(formatRule({ ...rule, enabled: !rule.enabled }));
            expect(toggled.rule?.enabled).toBe(!rule.enabled);
            expect(toggled.rule?.sid).toBe(rule.sid);
          },
        ),
        { numRuns: 3000 },
      );
    },
  );

  it('reads arbitrary classification.config and header specs', HEAVY, () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        checkDiagnostics(text, parseClassificationConfig(text).diagnostics);
        parseAddressSpec(text);
        parsePortSpec(text);
      }),
      { numRuns: 2000 },
    );
  });
});

const word = fc.stringMatching(/^[a-z][a-z0-9_.]{0,12}$/);
const variable = word.map((w) => `$${w.toUpperCase().replace(/\./g, '_')}`);
const ipv4 = fc.ipV4().map(String);
const port = fc.integer({ min: 0, max: 65535 }).map(String);
const address = fc.oneof(
  fc.constant('any'),
  variable,
  ipv4,
  fc.array(ipv4, { minLength: 1, maxLength: 3 }).map((items) => `![${items.join(',')}]`),
);
const portSpec = fc.oneof(
  fc.constant('any'),
  variable,
  port,
  port.map((p) => `${p}:`),
  fc.array(port, { minLength: 1, maxLength: 3 }).map((items) => `[${items.join(',')}]`),
);
/** A quoted value with escaped specials, as a rule writer would write it. */
const quoted = fc
  .string({ maxLength: 30 })
  .map((s) => `"${s.replace(/[\\";]/g, (c) => `\\${c}`).replace(/[\r\n]/g, ' ')}"`);
const option: fc.Arbitrary<RuleOption> = fc.record({
  keyword: word.filter((w) => !['sid', 'gid', 'rev', 'priority', 'msg'].includes(w)),
  value: fc.oneof(fc.constant(null), quoted, word),
});

describe('property: fields → text → fields', () => {
  it('parses a rule written from random fields back to those fields', HEAVY, () => {
    fc.assert(
      fc.property(
        fc.record({
          enabled: fc.boolean(),
          action: fc.constantFrom('alert', 'drop', 'pass', 'reject', 'drop:flow', 'accept:hook'),
          protocol: fc.constantFrom('tcp', 'udp', 'http', 'tls', 'dns', 'ip', 'tcp:all'),
          source: fc.record({ address, port: portSpec }),
          direction: fc.constantFrom('->' as const, '<>' as const, '=>' as const),
          destination: fc.record({ address, port: portSpec }),
          options: fc.array(option, { maxLength: 8 }),
          msg: quoted,
          sid: fc.integer({ min: 1, max: 2 ** 31 }),
        }),
        (fields) => {
          const options: RuleOption[] = [
            { keyword: 'msg', value: fields.msg },
            ...fields.options,
            { keyword: 'sid', value: String(fields.sid) },
          ];
          const text = buildRuleText({ ...fields, options });
          const { rule, diagnostics } = parseRule(text);
          expect(diagnostics).toEqual([]);
          expect(rule && ruleOptions(rule)).toEqual(options);
          expect(rule).toMatchObject({
            enabled: fields.enabled,
            action: fields.action,
            protocol: fields.protocol,
            source: fields.source,
            direction: fields.direction,
            destination: fields.destination,
            sid: fields.sid,
            msg: fields.msg.slice(1, -1).replace(/\\(.)/g, '$1'),
          });
        },
      ),
      { numRuns: 2000 },
    );
  });
});

const LINE_EDITS = ['backslash', 'hash', 'blank', 'join', 'crlf', 'cr', 'tab'] as const;

/** A file of corpus lines with line-level edits: continuations, comments, odd line breaks. */
const editedFile = fc
  .tuple(
    fc.array(corpusIndex, { minLength: 1, maxLength: 12 }),
    fc.array(fc.record({ at: fc.nat(), edit: fc.constantFrom(...LINE_EDITS) }), { maxLength: 8 }),
  )
  .map(([picks, edits]) => {
    const lines = picks.map((i) => corpusLines[i] ?? '');
    for (const { at, edit } of edits) {
      const j = at % lines.length;
      const line = lines[j] ?? '';
      if (edit === 'backslash') lines[j] = `${line} \\`;
      else if (edit === 'hash') lines[j] = `# ${line}`;
      else if (edit === 'blank') lines.splice(j, 0, '');
      else if (edit === 'join') lines.splice(j, 2, `${line}${lines[j + 1] ?? ''}`);
      else if (edit === 'crlf') lines[j] = `${line}\r`;
      else if (edit === 'cr') lines.splice(j, 2, `${line}\r${lines[j + 1] ?? ''}`);
      else lines[j] = line.replace(' ', '\t');
    }
    return lines.join('\n');
  });

describe.runIf(withCorpus)(`property: files of corpus lines round-trip ${NEEDS_CORPUS}`, () => {
  it('gives back every rule of an edited file and toggles each', HEAVY, () => {
    fc.assert(
      fc.property(editedFile, (text) => {
        const { rules, diagnostics } = parseRulesFile(text);
        checkDiagnostics(text, diagnostics);
        const starts = [0];
        for (const match of text.matchAll(/\r\n|\r|\n/g))
          starts.push(match.index + match[0].length);
        for (const rule of rules) {
          const start = starts[rule.line - 1] ?? -1;
          expect(text.startsWith(rule.text, start)).toBe(true);
          expect(formatRule(rule)).toBe(rule.text);
          const toggled = parseRulesFile(formatRule({ ...rule, enabled: !rule.enabled })).rules;
          expect(toggled.map((r) => [r.enabled, r.sid])).toEqual([[!rule.enabled, rule.sid]]);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('pathological input', () => {
  it('refuses deeply nested lists and long negation chains without overflowing', HEAVY, () => {
    const deep = `alert tcp ${'['.repeat(20000)}1.1.1.1${']'.repeat(20000)} any -> any any (sid:1;)`;
    expect(parseRule(deep).diagnostics[0]?.code).toBe('bad-address');
    expect(parseAddressSpec(`${'!'.repeat(20000)}any`).ok).toBe(true);
    expect(parsePortSpec('['.repeat(50000)).ok).toBe(false);
  });

  it('reads a long rule whose quotes never balance in one linear pass', HEAVY, () => {
    const options = Array.from({ length: 20000 }, (_, i) => `content:"a${i}; nocase;`).join(' ');
    const { rule } = parseRule(`alert tcp any any -> any any (${options} sid:1;)`);
    expect(rule && ruleOptions(rule).length).toBe(40001); // split as Suricata splits it
    expect(rule?.sid).toBe(1);
  });
});
