import { useTranslation } from 'react-i18next';
import Typography from '@mui/material/Typography';
import type { AlertRuleChange } from '@palisade/contract';
import type { AlertDetailData } from '../api/get-alert';

const RULE_CHANGE_TEXT = {
  modified: 'alerts.detail.ruleChange.modified',
  disabled: 'alerts.detail.ruleChange.disabled',
  enabled: 'alerts.detail.ruleChange.enabled',
} as const satisfies Record<AlertRuleChange, string>;

/**
 * Under the rule that fired: the policy version the device ran then, and whether the rule or
 * the policy changed since, so an analyst knows if a tuning may already cover this alert.
 */
export function AlertFiredUnder({ alert }: { alert: AlertDetailData }) {
  const { t } = useTranslation();
  const fired = alert.fired_under;
  const revNow = alert.rule?.rev ?? null;
  const revChanged = alert.rev !== null && revNow !== null && alert.rev !== revNow;
  if (fired === null && !revChanged) return null;
  let under: string | null = null;
  if (fired !== null) {
    if (fired.policy_name === null) {
      under = t('alerts.detail.firedUnderDeleted', { version: fired.version ?? '–' });
    } else if (fired.version === null) {
      under = t('alerts.detail.firedUnderUnknown', { policy: fired.policy_name });
    } else {
      under = t('alerts.detail.firedUnder', { policy: fired.policy_name, version: fired.version });
      if (fired.current_version !== null && fired.current_version !== fired.version)
        under += `; ${t('alerts.detail.policyNow', { version: fired.current_version })}`;
    }
  }
  return (
    <>
      {under !== null && (
        <Typography variant="caption" color="text.secondary" data-testid="alert-fired-under">
          {under}
        </Typography>
      )}
      {fired?.rule_change != null && (
        <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid="alert-rule-change">
          {t(RULE_CHANGE_TEXT[fired.rule_change])}
        </Typography>
      )}
      {revChanged && (
        <Typography variant="body2" color="text.secondary" data-testid="alert-rev-change">
          {t('alerts.detail.revChanged', { then: alert.rev, now: revNow })}
        </Typography>
      )}
    </>
  );
}
