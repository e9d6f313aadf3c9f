import { useState, type ComponentType } from 'react';
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
import { ConfirmDialog } from '../../../components/page/ConfirmDialog';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { useAcknowledgeAlerts } from '../api/ack-alerts';
import { alertDetailQueryOptions, type AlertDetailData } from '../api/get-alert';
import { useTuneAlert, type TuneAction } from '../api/tune-alert';
import { formatPreciseDateTime } from '../../../lib/format-date';
import { endpoint, formatDateTime } from '../format';
import { TUNE_ERROR_KEYS } from '../tune-errors';
import { SeverityChip } from './SeverityChip';

/** Shown with the alert's rule: what a rule source update changed in it. */
type RuleNote = ComponentType<{ gid: number; sid: number }>;

interface AlertDrawerProps {
  alertId: number | null;
  canWrite: boolean;
  RuleNote?: RuleNote;
  onClose: () => void;
}

const Code = ({ text, testId }: { text: string; testId: string }) => (
  <Box
    component="pre"
    dir="ltr"
    data-testid={testId}
    sx={{
      m: 0,
      p: 1.5,
      bgcolor: 'grey.100',
      borderRadius: 1,
      fontSize: 12,
      overflow: 'auto',
      maxHeight: 360,
      whiteSpace: 'pre-wrap',
      wordBreak: 'break-all',
      // 'start' of a dir="ltr" box: the right-to-left style plugin would turn 'left' into 'right'.
      textAlign: 'start',
    }}
  >
    {text}
  </Box>
);

/** An alert's detail: its fields, the rule that fired, the full eve.json event; ack and tuning. */
export function AlertDrawer({ alertId, canWrite, RuleNote, onClose }: AlertDrawerProps) {
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
      {alertId !== null && <AlertDetailBody id={alertId} canWrite={canWrite} RuleNote={RuleNote} />}
    </Drawer>
  );
}

function AlertDetailBody({
  id,
  canWrite,
  RuleNote,
}: {
  id: number;
  canWrite: boolean;
  RuleNote?: RuleNote;
}) {
  const { t } = useTranslation();
  const detail = useQuery(alertDetailQueryOptions(id));
  if (detail.isError) {
    const error = apiErrorMessage(detail.error);
    return <MuiAlert severity="error">{errorText(error, t)}</MuiAlert>;
  }
  if (detail.data === undefined) return <Skeleton variant="rounded" height={400} />;
  return <AlertDetailView alert={detail.data} canWrite={canWrite} RuleNote={RuleNote} />;
}

function AlertDetailView({
  alert: a,
  canWrite,
  RuleNote,
}: {
  alert: AlertDetailData;
  canWrite: boolean;
  RuleNote?: RuleNote;
}) {
  const { t, i18n } = useTranslation();
  const ack = useAcknowledgeAlerts();
  const tune = useTuneAlert();
  const [confirm, setConfirm] = useState<TuneAction | null>(null);

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
      notifyApiError(failure, {
        codes: TUNE_ERROR_KEYS,
        params: { sid: a.sid ?? '', device: a.device, source: a.src_ip ?? '' },
      });
    }
  };

  const fields: { label: string; value: string }[] = [
    { label: t('alerts.columns.time'), value: formatPreciseDateTime(a.time, i18n.language) },
    { label: t('alerts.columns.device'), value: a.device },
    {
      label: t('alerts.detail.signature'),
      value: a.sid === null ? '–' : `${a.gid ?? 1}:${a.sid}:${a.rev ?? 0}`,
    },
    { label: t('alerts.detail.category'), value: a.category || '–' },
    { label: t('alerts.detail.action'), value: a.action ?? '–' },
    {
      label: t('alerts.columns.proto'),
      value: [a.proto, a.app_proto].filter((p) => p !== null && p !== '').join(' / ') || '–',
    },
    { label: t('alerts.columns.source'), value: endpoint(a.src_ip, a.src_port) },
    { label: t('alerts.columns.destination'), value: endpoint(a.dest_ip, a.dest_port) },
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
        <Box sx={{ display: 'flex', gap: 1, mt: 0.5 }}>
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
            disabled={noPolicy || a.rule === null || tune.isPending}
            onClick={() => setConfirm('disable_rule')}
          >
            {t('alerts.tune.disableRule')}
          </Button>
          <Button
            variant="outlined"
            color="warning"
            startIcon={<VolumeOffIcon />}
            disabled={noPolicy || a.src_ip === null || tune.isPending}
            onClick={() => setConfirm('suppress_source')}
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
      <Box component="section">
        <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
          {t('alerts.detail.rule')}
        </Typography>
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
      </Box>
      <Box component="section">
        <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
          {t('alerts.detail.event')}
        </Typography>
        <Code text={JSON.stringify(a.event, null, 2)} testId="alert-event" />
      </Box>
      <ConfirmDialog
        open={confirm !== null}
        title={
          confirm === 'disable_rule'
            ? t('alerts.tune.disableRuleTitle')
            : t('alerts.tune.suppressSourceTitle')
        }
        body={
          confirm === 'disable_rule'
            ? t('alerts.tune.disableRuleBody', { sid: a.sid ?? '', device: a.device })
            : t('alerts.tune.suppressSourceBody', {
                sid: a.sid ?? '',
                source: a.src_ip ?? '',
                device: a.device,
              })
        }
        confirmLabel={
          confirm === 'disable_rule'
            ? t('alerts.tune.disableRule')
            : t('alerts.tune.suppressSource')
        }
        onCancel={() => setConfirm(null)}
        onConfirm={() => confirm !== null && void runTune(confirm)}
      />
    </Box>
  );
}
