import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { notifyApiError, notifyInfo } from '../../../components/notifications/notify';
import { newestAlertOf, type WindowDays } from '../api/rule-analytics';

/** The Alerts screen's time range for an analytics window. */
const RANGE_OF: Record<WindowDays, string> = { 1: '24h', 7: '7d', 30: '30d' };

/**
 * Tune a rule from analytics: the Alerts screen filtered to the rule over the window, with its
 * newest stored alert open, whose drawer offers the suppression, threshold and disable.
 */
export function useTuneRule(): (sid: number, days: WindowDays) => void {
  const navigate = useNavigate();
  return useCallback(
    (sid: number, days: WindowDays) => {
      newestAlertOf(sid).then(
        (id) => {
          // The counts outlive the alerts (retention keeps the hourly rollup): with none left
          // to open, the Alerts page would show an empty list and no way to tune.
          if (id === null) {
            notifyInfo('ruleAnalytics.tuneNoAlert');
            return;
          }
          const search = new URLSearchParams({
            signature: String(sid),
            range: RANGE_OF[days],
            alert: String(id),
          });
          void navigate(`/alerts?${search.toString()}`);
        },
        (error: unknown) => notifyApiError(error),
      );
    },
    [navigate],
  );
}
