import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ChangePreview } from '@palisade/contract';
import { DeviceChange } from './DeviceChange';

interface ChangeReviewDialogProps {
  preview: ChangePreview;
  onConfirm: () => void;
  onCancel: () => void;
  /** Another action than a save (a rollback): its own title, words above the reach, button. */
  title?: string;
  intro?: ReactNode;
  /** What the change would do besides what it sends (a tuning's backtest), below the intro. */
  evidence?: ReactNode;
  confirmLabel?: string;
}

/**
 * "Review changes" (issue 18, see before you send): how many devices a save reaches and, per
 * device, what it would receive, before anything is sent. Cancel goes back to the editor. In
 * an organization that stages its changes, it says the save is kept pending until deployed.
 */
export function ChangeReviewDialog({
  preview,
  onConfirm,
  onCancel,
  title,
  intro,
  evidence,
  confirmLabel,
}: ChangeReviewDialogProps) {
  const { t } = useTranslation();
  const rest = preview.devices_reached - preview.devices.length;
  // Staged: the save reaches no device until Deploy; the details are the next deploy's.
  const staged = preview.deploy_mode === 'staged';
  return (
    <Dialog open onClose={onCancel} fullWidth maxWidth="lg" aria-labelledby="change-review-title">
      <DialogTitle id="change-review-title">{title ?? t('changeReview.title')}</DialogTitle>
      <DialogContent dividers>
        {intro !== undefined && (
          <Typography sx={{ mb: 1 }} data-testid="change-review-intro">
            {intro}
          </Typography>
        )}
        {evidence}
        <Typography data-testid="change-review-reach" sx={evidence === undefined ? {} : { mt: 2 }}>
          {t(staged ? 'changeReview.stagedReach' : 'changeReview.reach', {
            count: preview.devices_reached,
          })}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('changeReview.split', {
            config: preview.config_changed,
            policy: preview.policy_changed,
          })}
        </Typography>
        {preview.lockout.map((finding) => (
          <Alert
            key={finding.device_id}
            severity={finding.overridden ? 'warning' : 'error'}
            sx={{ mt: 1 }}
            data-testid="change-review-lockout"
          >
            {finding.message}
          </Alert>
        ))}
        <Stack sx={{ mt: 2 }}>
          {preview.devices.map((device) => (
            <DeviceChange key={device.id} device={device} />
          ))}
        </Stack>
        {preview.devices_truncated && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {t('changeReview.more', { shown: preview.devices.length, count: rest })}
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{t('changeReview.back')}</Button>
        <Button variant="contained" onClick={onConfirm} autoFocus>
          {confirmLabel ??
            t(staged ? 'changeReview.stagedConfirm' : 'changeReview.confirm', {
              count: preview.devices_reached,
            })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
