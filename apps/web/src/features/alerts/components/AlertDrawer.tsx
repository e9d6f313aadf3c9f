import type { ComponentType } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import MuiAlert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { alertDetailQueryOptions, type AlertDetailData } from '../api/get-alert';
import { AlertActions } from './AlertActions';
import { AlertComments } from './AlertComments';
import { AlertFields } from './AlertFields';
import { AlertFiredUnder } from './AlertFiredUnder';
import { Code, Flow, Payload, References, Related, Section } from './AlertEvidence';
import type { OnPivot } from './PivotValue';
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
  const { t } = useTranslation();

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
      <AlertFields alert={a} onPivot={onPivot} />
      {canWrite && <AlertActions alert={a} />}
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
    </Box>
  );
}
