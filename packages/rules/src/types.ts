// Public types of @palisade/rules. Everything here is plain data: no classes, no methods, so
// rules can be stored, sent over the wire and compared structurally.

/** `->` one way, `<>` both ways, `=>` Suricata 8 transactional (request → response). */
export type Direction = '->' | '<>' | '=>';

/** One side of a rule header, as written (`$HOME_NET`, `[80,443]`, `!1024:`). */
export interface Endpoint {
  readonly address: string;
  readonly port: string;
}

/** One rule option, as written: keyword and raw value (escapes and quotes kept), in order. */
export interface RuleOption {
  keyword: string;
  /** `null` for a keyword without a value (`nocase;`); otherwise the trimmed raw text. */
  value: string | null;
}

/** One `metadata` entry: `policy balanced-ips drop` → key `policy`, value `balanced-ips drop`. */
export interface MetadataEntry {
  key: string;
  value: string;
}

/** One `reference`: `cve,2022-26134` → system `cve`, id `2022-26134`. */
export interface RuleReference {
  system: string;
  id: string;
}

/**
 * A parsed rule. `text` is the source of truth; the other fields are read from it. The full
 * option list is not kept: `ruleOptions(rule)` reads it from the text when it is needed.
 */
export interface Rule {
  /** The rule exactly as written, continuation lines included, without the final newline. */
  text: string;
  /** 1-based line of the rule's first physical line (1 for `parseRule` unless told). */
  line: number;
  /** `false` for a commented-out rule (`# alert …`). */
  enabled: boolean;
  /** `alert`, `drop`, `pass`, `reject`, … possibly scoped as in Suricata 8 (`accept:hook`). */
  action: string;
  /** `tcp`, `http`, `tls:client_hello_done`, …; `null` for a header-less rule (`alert (…)`). */
  protocol: string | null;
  /** `null` when the header has no addresses (`alert http (…)`, Snort 3). */
  source: Endpoint | null;
  direction: Direction | null;
  destination: Endpoint | null;
  /** The message with its quotes removed and escapes resolved; `null` when there is none. */
  msg: string | null;
  /** 1 unless the rule says otherwise. */
  gid: number;
  sid: number;
  /** `null` when the rule has no `rev`. */
  rev: number | null;
  classtype: string | null;
  priority: number | null;
  metadata: readonly MetadataEntry[];
  references: readonly RuleReference[];
  /** Raw `flowbits` values in order (`set,foo`, `isset,foo`, `noalert`). */
  flowbits: readonly string[];
}

export type Severity = 'error' | 'warning';

/** Stable diagnostic codes; the message is English prose for logs and API answers. */
export type DiagnosticCode =
  | 'unknown-action'
  | 'incomplete-header'
  | 'bad-address'
  | 'bad-port'
  | 'bad-direction'
  | 'missing-options'
  | 'trailing-text'
  | 'bad-keyword'
  | 'missing-value'
  | 'unterminated-option'
  | 'unterminated-string'
  | 'bad-number'
  | 'missing-sid'
  | 'dangling-continuation'
  | 'bad-classification'
  | 'duplicate-classification';

export interface Diagnostic {
  severity: Severity;
  code: DiagnosticCode;
  message: string;
  /** The caller-supplied file name, when there is one. */
  fileName?: string;
  /** 1-based line and column in the file (or in the text given to `parseRule`). */
  line: number;
  column: number;
}

export interface ParseOptions {
  /** Named in every diagnostic. */
  fileName?: string;
}

export interface ParseRuleOptions extends ParseOptions {
  /** Line number of the text's first line (default 1). */
  line?: number;
}

export interface ParseRuleResult {
  /** `null` when the text is not a valid rule; the diagnostics say why. */
  rule: Rule | null;
  diagnostics: Diagnostic[];
}

export interface ParseRulesFileResult {
  rules: Rule[];
  diagnostics: Diagnostic[];
}

export interface Classification {
  description: string;
  priority: number;
}

export interface ParseClassificationResult {
  /** classtype short name → description and priority, in file order. */
  classifications: Map<string, Classification>;
  diagnostics: Diagnostic[];
}
