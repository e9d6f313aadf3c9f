import type { TuneErrorCode } from '@palisade/contract';

/** What the console says for each refusal of a tuning action (POST /alerts/{id}/tune). */
export const TUNE_ERROR_KEYS = {
  tune_no_policy: 'alerts.tune.errors.noPolicy',
  tune_no_signature: 'alerts.tune.errors.noSignature',
  tune_no_source: 'alerts.tune.errors.noSource',
  tune_rule_unknown: 'alerts.tune.errors.ruleUnknown',
  tune_rule_already_disabled: 'alerts.tune.errors.ruleAlreadyDisabled',
  tune_source_already_suppressed: 'alerts.tune.errors.sourceAlreadySuppressed',
  tune_policy_restricted: 'alerts.tune.errors.policyRestricted',
} as const satisfies Record<TuneErrorCode, string>;
