// @palisade/rules: Snort 2.9 / Snort 3 / Suricata rules and classification.config, pure.
export { parseRule, ruleOptions } from './parse-rule.js';
export { flowbitUse } from './flowbits.js';
export type { FlowbitUse } from './flowbits.js';
export { parseRulesFile } from './parse-file.js';
export { formatRule, buildRuleText } from './format.js';
export type { FormattableRule, RuleFields } from './format.js';
export { parseClassificationConfig } from './classification.js';
export { formatDiagnostic } from './diagnostic.js';
export { parseAddressSpec, parsePortSpec } from './endpoint.js';
export type { AddressSpec, PortSpec, SpecError, SpecResult } from './endpoint.js';
export { RULE_ACTIONS, ACTION_SCOPES } from './header.js';
export { unescapeValue } from './options.js';
export type * from './types.js';
