import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { ApiError } from '../../lib/api-client';

/** The server's message when it refused a firewall change that would cut a device off. */
export function lockoutMessage(failure: unknown): string | null {
  return failure instanceof ApiError && failure.code === 'lockout'
    ? (failure.serverMsg ?? failure.message)
    : null;
}

interface LockoutDialogProps {
  message: string;
  /** Administrators may send the change again with the override. */
  canOverride: boolean;
  onOverride: () => void;
  onClose: () => void;
}

/** A firewall change was refused because a device would lose the server; shows why. */
export function LockoutDialog({ message, canOverride, onOverride, onClose }: LockoutDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="lockout-title">
      <DialogTitle id="lockout-title">{t('lockout.title')}</DialogTitle>
      <DialogContent>
        <Alert severity="error" data-testid="lockout-message">
          {message}
        </Alert>
        <Typography variant="body2" sx={{ mt: 2 }}>
          {canOverride ? t('lockout.overrideHelp') : t('lockout.adminOnly')}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        {canOverride && (
          <Button color="error" variant="contained" onClick={onOverride}>
            {t('lockout.applyAnyway')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
