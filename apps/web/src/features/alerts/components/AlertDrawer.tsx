import { useState, type ComponentType, type ReactNode } from 'react';
import type { ChangePreview } from '@palisade/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import MuiAlert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import BlockIcon from '@mui/icons-material/Block';
import CloseIcon from '@mui/icons-material/Close';
import DoneIcon from '@mui/icons-material/Done';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import VolumeOffIcon from '@mui/icons-material/VolumeOff';
import { notifyApiError, notifySuccess } from '../../../components/notifications/notify';
import { notifications } from '../../../components/notifications/queue';
import { BacktestPanel } from '../../../components/backtest/BacktestPanel';
import type { BacktestEntries } from '../../../components/backtest/backtest';
import { ChangeReviewDialog } from '../../../components/change-review/ChangeReviewDialog';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { useAcknowledgeAlerts } from '../api/ack-alerts';
import { alertDetailQueryOptions, type AlertDetailData } from '../api/get-alert';
import { previewTune, useTuneAlert, type TuneAction } from '../api/tune-alert';
import { formatDateTime, formatPreciseDateTime } from '../../../lib/format-date';
import { TUNE_ERROR_KEYS } from '../tune-errors';
import { AlertComments } from './AlertComments';
import { AlertFiredUnder } from './AlertFiredUnder';
import { Code, Flow, Payload, References, Related, Section } from './AlertEvidence';
import { EndpointPivots, PivotValue, type OnPivot } from './PivotValue';
import { SeverityChip } from './SeverityChip';
import { StarToggle } from './StarToggle';

/** Shown with the alert's rule: what a rule source update changed in it. */
type RuleNote = ComponentType<{ gid: number; sid: number }>;

interface AlertDrawerProps {
  alertId: number | null;
  canWrite: boolean;
  RuleNote?: RuleNote;
  onPivot: OnPivot;
  /** Opens another alert (a related one) in the drawer. */
  onOpen: (id: number) => void;
  onClose: () => void;
}

/** An alert's detail: its fields, the rule that fired, the full eve.json event; ack and tuning. */
export function AlertDrawer(props: AlertDrawerProps) {
  const { alertId, onClose } = props;
  const { t } = useTranslation();
  return (
    <Drawer
      anchor="right"
      open={alertId !== null}
      onClose={onClose}
      // Above the app bar, which sits over the navigation drawer.
      sx={{ zIndex: (theme) => theme.zIndex.modal }}
      slotProps={{
        paper: {
          sx: { width: { xs: '100%', md: 640 }, p: 2 },
          role: 'dialog',
          'aria-label': t('alerts.detail.title'),
        },
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
          {t('alerts.detail.title')}
        </Typography>
        <IconButton aria-label={t('common.close')} onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </Box>
      {alertId !== null && <AlertDetailBody {...props} id={alertId} />}
    </Drawer>
  );
}

type ViewProps = Omit<AlertDrawerProps, 'alertId' | 'onClose'>;

function AlertDetailBody({ id, ...props }: ViewProps & { id: number }) {
  const { t } = useTranslation();
  const detail = useQuery(alertDetailQueryOptions(id));
  if (detail.isError) {
    const error = apiErrorMessage(detail.error);
    return <MuiAlert severity="error">{errorText(error, t)}</MuiAlert>;
  }
  if (detail.data === undefined) return <Skeleton variant="rounded" height={400} />;
  return <AlertDetailView {...props} alert={detail.data} />;
}

function AlertDetailView({
  alert: a,
  canWrite,
  RuleNote,
  onPivot,
  onOpen,
}: ViewProps & { alert: AlertDetailData }) {
  const { t, i18n } = useTranslation();
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

  const fields: { label: string; value: ReactNode }[] = [
    { label: t('alerts.columns.time'), value: formatPreciseDateTime(a.time, i18n.language) },
    {
      label: t('alerts.columns.device'),
      value: (
        <PivotValue field="device" value={String(a.device_id)} label={a.device} onPivot={onPivot} />
      ),
    },
    {
      label: t('alerts.detail.signature'),
      value:
        a.sid === null ? (
          '–'
        ) : (
          <>
            {a.gid ?? 1}:<PivotValue field="sid" value={String(a.sid)} onPivot={onPivot} />:
            {a.rev ?? 0}
          </>
        ),
    },
    { label: t('alerts.detail.category'), value: a.category || '–' },
    { label: t('alerts.detail.action'), value: a.action ?? '–' },
    {
      label: t('alerts.columns.proto'),
      value: (
        <>
          {a.proto === null ? '–' : <PivotValue field="proto" value={a.proto} onPivot={onPivot} />}
          {a.app_proto !== null && a.app_proto !== '' && ` / ${a.app_proto}`}
        </>
      ),
    },
    {
      label: t('alerts.columns.source'),
      value: <EndpointPivots side="src" ip={a.src_ip} port={a.src_port} onPivot={onPivot} />,
    },
    {
      label: t('alerts.columns.destination'),
      value: <EndpointPivots side="dest" ip={a.dest_ip} port={a.dest_port} onPivot={onPivot} />,
    },
    { label: t('alerts.detail.policy'), value: a.policy_name ?? t('alerts.detail.noPolicy') },
  ];
  if (a.acknowledged_at !== null)
    fields.push({
      label: t('alerts.detail.acknowledgedBy'),
      value: `${a.acknowledged_by ?? '–'}, ${formatDateTime(a.acknowledged_at, i18n.language)}`,
    });
  const noPolicy = a.policy_id === null;

  return (
    <Box sx={{ display: 'grid', gap: 2 }} data-testid="alert-detail">
      <Box>
        <Typography variant="subtitle1" sx={{ fontWeight: 600 }} data-testid="alert-detail-msg">
          {a.msg ?? t('alerts.noMessage')}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, mt: 0.5, alignItems: 'center' }}>
          <StarToggle alertId={a.id} starred={a.starred} canWrite={canWrite} size="medium" />
          <SeverityChip severity={a.severity} />
          {a.acknowledged ? (
            <Chip size="small" variant="outlined" label={t('alerts.state.acknowledged')} />
          ) : (
            <Chip size="small" color="info" label={t('alerts.state.new')} />
          )}
        </Box>
      </Box>
      <Box
        component="dl"
        sx={{
          m: 0,
          display: 'grid',
          gridTemplateColumns: 'max-content 1fr',
          columnGap: 2,
          rowGap: 0.5,
          '& dt': { color: 'text.secondary' },
          '& dd': { m: 0, overflowWrap: 'anywhere' },
        }}
      >
        {fields.map((f) => (
          <Box key={f.label} sx={{ display: 'contents' }}>
            <dt>{f.label}</dt>
            <dd>{f.value}</dd>
          </Box>
        ))}
      </Box>
      {canWrite && (
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
      )}
      {canWrite && noPolicy && (
        <Typography variant="body2" color="text.secondary">
          {t('alerts.tune.noPolicy')}
        </Typography>
      )}
      <Section title={t('alerts.detail.rule')}>
        {a.rule === null ? (
          <Typography variant="body2" color="text.secondary">
            {t('alerts.detail.noRule')}
          </Typography>
        ) : (
          <>
            <Code text={a.rule.text} testId="alert-rule" />
            <Typography variant="caption" color="text.secondary">
              {t('alerts.detail.ruleSource', { source: a.rule.source })}
            </Typography>
            {RuleNote !== undefined && a.sid !== null && <RuleNote gid={a.gid ?? 1} sid={a.sid} />}
          </>
        )}
        <AlertFiredUnder alert={a} />
      </Section>
      <AlertComments alertId={a.id} comments={a.comments} canWrite={canWrite} />
      {a.rule !== null && <References ruleText={a.rule.text} />}
      <Payload event={a.event} />
      <Flow alert={a} />
      <Related id={a.id} onOpen={onOpen} />
      <Section title={t('alerts.detail.event')}>
        <Code text={JSON.stringify(a.event, null, 2)} testId="alert-event" />
      </Section>
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
    </Box>
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
