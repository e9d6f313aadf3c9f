// Field-by-field comparison of our parse with the reference parser's (suricata-update 1.2.7).
// Deliberate differences are explained by deliberate.ts. Test code only.

import { skipDisabledPrefix } from '../header.js';
import { toLogical } from '../logical-text.js';
import { parseRulesFile } from '../parse-file.js';
import type { Diagnostic, Rule } from '../types.js';
import type { CorpusFile, Oracle, OracleRule } from './corpus.js';
import { referenceQuirk, whyFieldsDiffer, whyReferenceRefuses, whyWeRefuse } from './deliberate.js';

export interface Disagreement {
  file: string;
  line: number;
  sid: number | null;
  field: string;
  ours: unknown;
  reference: unknown;
}

export interface DeliberateDifference {
  file: string;
  line: number;
  reason: string;
}

export interface AgreementReport {
  files: number;
  rulesParsed: number;
  rulesCompared: number;
  fieldsCompared: number;
  disagreements: Disagreement[];
  deliberate: DeliberateDifference[];
  /** Rules of archive members the reference was not run on (nothing to compare with). */
  unchecked: DeliberateDifference[];
  /** Our diagnostics on lines the reference did not parse either. */
  bothRefuse: number;
  /**
   * Rules both parse for which a deliberate-difference explanation would nevertheless fire:
   * must stay empty, or the explanations are too broad to mean anything.
   */
  overbroad: DeliberateDifference[];
  diagnostics: Diagnostic[];
}

/** The reference keeps backslash escapes in msg; we resolve them (what Suricata shows in alerts). */
function referenceMsg(msg: string): string {
  return msg.replace(/\\(.)/g, '$1');
}

/** `url, example.com` → `url,example.com`: we split a reference into system and id. */
function referenceReference(value: string): string {
  const comma = value.indexOf(',');
  if (comma < 0) return value.trim();
  const id = value.slice(comma + 1).trim();
  return id ? `${value.slice(0, comma).trim()},${id}` : value.slice(0, comma).trim();
}

/** `policy  max-detect-ips drop` → `policy max-detect-ips drop`: we split key from value. */
function referenceMetadata(entries: string[]): string[] {
  return entries.filter((entry) => entry.length > 0).map((entry) => entry.replace(/\s+/, ' '));
}

function rawText(text: string): string {
  const logical = toLogical(text).text;
  return logical.slice(skipDisabledPrefix(logical).start).trim();
}

/** The values of both sides for each compared field, in the reference's terms. */
export function comparableFields(
  rule: Rule,
  reference: OracleRule,
): Array<[field: string, ours: unknown, theirs: unknown]> {
  return [
    ['enabled', rule.enabled, reference.enabled],
    ['action', rule.action, reference.action],
    ['proto', rule.protocol, reference.proto],
    ['source_addr', rule.source?.address ?? null, reference.source_addr],
    ['source_port', rule.source?.port ?? null, reference.source_port],
    ['direction', rule.direction, reference.direction],
    ['dest_addr', rule.destination?.address ?? null, reference.dest_addr],
    ['dest_port', rule.destination?.port ?? null, reference.dest_port],
    // The reference gives "" when there is no msg.
    ['msg', rule.msg ?? '', referenceMsg(reference.msg)],
    ['sid', rule.sid, reference.sid],
    ['gid', rule.gid, reference.gid],
    // The reference defaults rev to 0; we say null (absent).
    ['rev', rule.rev ?? 0, reference.rev],
    ['classtype', rule.classtype, reference.classtype],
    // The reference keeps priority as written (a string), 0 when absent.
    ['priority', rule.priority ?? 0, reference.priority === 0 ? 0 : Number(reference.priority)],
    [
      'metadata',
      rule.metadata.map((m) => (m.value ? `${m.key} ${m.value}` : m.key)),
      referenceMetadata(reference.metadata),
    ],
    [
      'references',
      rule.references.map((r) => (r.id ? `${r.system},${r.id}` : r.system)),
      reference.references.map(referenceReference),
    ],
    ['flowbits', rule.flowbits, reference.flowbits],
    // The rule text as one line, without its comment marker: what the reference calls raw.
    ['raw', rawText(rule.text), reference.raw],
  ];
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function compareRule(report: AgreementReport, file: string, rule: Rule, reference: OracleRule) {
  report.rulesCompared++;
  const overbroad = whyWeRefuse(reference) ?? whyReferenceRefuses(rule);
  if (overbroad !== null) report.overbroad.push({ file, line: rule.line, reason: overbroad });
  let explained: string | null | undefined;
  for (const [field, ours, theirs] of comparableFields(rule, reference)) {
    report.fieldsCompared++;
    if (same(ours, theirs)) continue;
    explained ??= whyFieldsDiffer(rule) ?? referenceQuirk(reference.raw);
    if (explained !== null) {
      report.deliberate.push({ file, line: rule.line, reason: `${field}: ${explained}` });
    } else {
      report.disagreements.push({
        file,
        line: rule.line,
        sid: rule.sid,
        field,
        ours,
        reference: theirs,
      });
    }
  }
}

function compareFile(
  report: AgreementReport,
  file: CorpusFile,
  oracleName: string,
  oracle: Oracle,
): void {
  const { rules, diagnostics } = parseRulesFile(file.text, { fileName: file.name });
  report.rulesParsed += rules.length;
  report.diagnostics.push(...diagnostics);
  const records = oracle.byFile.get(oracleName) ?? [];
  // An archive member the reference was never run on: nothing to compare with.
  const unread = records.length === 0 && !oracle.files.has(oracleName) && file.name.includes('!');
  // The reference reads files as strict UTF-8 and gives up on any other.
  const undecodable =
    records.length === 0 && !file.utf8
      ? 'the file is not UTF-8: the reference cannot read it'
      : null;
  const seen = new Set<number>();
  for (const rule of rules) {
    seen.add(rule.line);
    const reference = oracle.rules.get(`${oracleName}:${rule.line}`);
    if (reference !== undefined) {
      compareRule(report, file.name, rule, reference);
      continue;
    }
    const reason = whyReferenceRefuses(rule) ?? whyFieldsDiffer(rule) ?? undecodable;
    if (reason !== null) report.deliberate.push({ file: file.name, line: rule.line, reason });
    else if (unread) {
      report.unchecked.push({ file: file.name, line: rule.line, reason: 'no reference output' });
    } else {
      report.disagreements.push({
        file: file.name,
        line: rule.line,
        sid: rule.sid,
        field: '(rule)',
        ours: 'parsed',
        reference: oracle.errors.get(`${oracleName}:${rule.line}`)?.error ?? 'not a rule',
      });
    }
  }
  const ourErrors = new Map(diagnostics.map((d) => [d.line, d]));
  for (const reference of records) {
    if (seen.has(reference.line)) continue;
    const reason = whyWeRefuse(reference) ?? referenceQuirk(reference.raw);
    if (reason !== null) {
      report.deliberate.push({ file: file.name, line: reference.line, reason });
      continue;
    }
    const diagnostic = ourErrors.get(reference.line);
    report.disagreements.push({
      file: file.name,
      line: reference.line,
      sid: reference.sid,
      field: '(rule)',
      ours: diagnostic ? `${diagnostic.code}: ${diagnostic.message}` : 'not a rule',
      reference: 'parsed',
    });
  }
  for (const diagnostic of diagnostics) {
    if (!oracle.rules.has(`${oracleName}:${diagnostic.line}`)) report.bothRefuse++;
  }
}

/** Compares every rule of the given files with the oracle. */
export function compareWithOracle(files: CorpusFile[], oracle: Oracle): AgreementReport {
  const report: AgreementReport = {
    files: files.length,
    rulesParsed: 0,
    rulesCompared: 0,
    fieldsCompared: 0,
    disagreements: [],
    deliberate: [],
    unchecked: [],
    bothRefuse: 0,
    overbroad: [],
    diagnostics: [],
  };
  // The reference was not run on the Snort 3 tarball: its member borrows the records of the
  // extracted file with the same content. Any other file was read by the reference, even when
  // it found no rule in it.
  const oracleNameByText = new Map<string, string>();
  for (const file of files) {
    if (oracle.files.has(file.name)) oracleNameByText.set(file.text, file.name);
  }
  for (const file of files) {
    const oracleName = oracle.files.has(file.name)
      ? file.name
      : (oracleNameByText.get(file.text) ?? file.name);
    compareFile(report, file, oracleName, oracle);
  }
  return report;
}
