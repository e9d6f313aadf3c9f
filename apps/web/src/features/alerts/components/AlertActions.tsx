import { useState } from 'react';
import type { ChangePreview } from '@palisade/contract';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import BlockIcon from '@mui/icons-material/Block';
import DoneIcon from '@mui/icons-material/Done';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import VolumeOffIcon from '@mui/icons-material/VolumeOff';
import { notifyApiError, notifySuccess } from '../../../components/notifications/notify';
import { notifications } from '../../../components/notifications/queue';
import { BacktestPanel } from '../../../components/backtest/BacktestPanel';
import type { BacktestEntries } from '../../../components/backtest/backtest';
import { ChangeReviewDialog } from '../../../components/change-review/ChangeReviewDialog';
import { useAcknowledgeAlerts } from '../api/ack-alerts';
import type { AlertDetailData } from '../api/get-alert';
import { previewTune, useTuneAlert, type TuneAction } from '../api/tune-alert';
import { TUNE_ERROR_KEYS } from '../tune-errors';

/**
 * What a writer does with an alert in the drawer: acknowledge or reopen it, or tune its
 * device's policy (disable the rule, suppress the source) after reviewing the change.
 */
export function AlertActions({ alert: a }: { alert: AlertDetailData }) {
  const { t } = useTranslation();
  const ack = useAcknowledgeAlerts();
  const tune = useTuneAlert();
  /** A tuning edits the device's policy: what each device would receive is reviewed first. */
  const [confirm, setConfirm] = useState<{ action: TuneAction; preview: ChangePreview } | null>(
    null,
  );
  const [previewing, setPreviewing] = useState(false);
  const tuneErrors = {
    codes: TUNE_ERROR_KEYS,
    params: { sid: a.sid ?? '', device: a.device, source: a.src_ip ?? '' },
  };

  const reviewTune = async (action: TuneAction) => {
    setPreviewing(true);
    try {
      setConfirm({ action, preview: await previewTune(a.id, action) });
    } catch (failure) {
      notifyApiError(failure, tuneErrors);
    } finally {
      setPreviewing(false);
    }
  };

  const acknowledge = async (acknowledged: boolean) => {
    try {
      await ack.mutateAsync({ ids: [a.id], acknowledged });
      notifySuccess(acknowledged ? 'alerts.ack.done' : 'alerts.ack.reopened');
    } catch (failure) {
      notifyApiError(failure);
    }
  };

  const runTune = async (action: TuneAction) => {
    setConfirm(null);
    const progress = notifications.push({ content: 'alerts.tune.working', showProgress: true });
    try {
      const result = await tune.mutateAsync({ id: a.id, action });
      notifications.remove(progress);
      notifications.push({ content: result.msg, raw: true, color: 'success' });
    } catch (failure) {
      notifications.remove(progress);
      notifyApiError(failure, tuneErrors);
    }
  };

  const noPolicy = a.policy_id === null;
  return (
    <>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        {a.acknowledged ? (
          <Button
            variant="outlined"
            startIcon={<RestartAltIcon />}
            disabled={ack.isPending}
            onClick={() => void acknowledge(false)}
          >
            {t('alerts.ack.reopen')}
          </Button>
        ) : (
          <Button
            variant="contained"
            startIcon={<DoneIcon />}
            disabled={ack.isPending}
            onClick={() => void acknowledge(true)}
          >
            {t('alerts.ack.one')}
          </Button>
        )}
        <Button
          variant="outlined"
          color="warning"
          startIcon={<BlockIcon />}
          disabled={noPolicy || a.rule === null || tune.isPending || previewing}
          onClick={() => void reviewTune('disable_rule')}
        >
          {t('alerts.tune.disableRule')}
        </Button>
        <Button
          variant="outlined"
          color="warning"
          startIcon={<VolumeOffIcon />}
          disabled={noPolicy || a.src_ip === null || tune.isPending || previewing}
          onClick={() => void reviewTune('suppress_source')}
        >
          {t('alerts.tune.suppressSource')}
        </Button>
      </Box>
      {noPolicy && (
        <Typography variant="body2" color="text.secondary">
          {t('alerts.tune.noPolicy')}
        </Typography>
      )}
      {confirm !== null && (
        <ChangeReviewDialog
          preview={confirm.preview}
          title={
            confirm.action === 'disable_rule'
              ? t('alerts.tune.disableRuleTitle')
              : t('alerts.tune.suppressSourceTitle')
          }
          intro={
            confirm.action === 'disable_rule'
              ? t('alerts.tune.disableRuleBody', { sid: a.sid ?? '', device: a.device })
              : t('alerts.tune.suppressSourceBody', {
                  sid: a.sid ?? '',
                  source: a.src_ip ?? '',
                  device: a.device,
                })
          }
          evidence={
            a.policy_id === null ? undefined : (
              <BacktestPanel policyId={a.policy_id} entries={tuneEntries(a, confirm.action)} />
            )
          }
          confirmLabel={
            confirm.action === 'disable_rule'
              ? t('alerts.tune.disableRule')
              : t('alerts.tune.suppressSource')
          }
          onCancel={() => setConfirm(null)}
          onConfirm={() => void runTune(confirm.action)}
        />
      )}
    </>
  );
}

/** The policy entries a tuning from the alert adds, as the server's tune writes them. */
function tuneEntries(alert: AlertDetailData, action: TuneAction): BacktestEntries {
  if (action === 'disable_rule')
    return {
      overrides: alert.rule === null ? [] : [{ rule_id: alert.rule.id, action: 'disable' }],
    };
  return {
    thresholds: [
      {
        kind: 'suppress',
        gid: alert.gid ?? 1,
        sid: alert.sid ?? 0,
        track: 'by_src',
        ip: alert.src_ip ?? '',
      },
    ],
  };
}
