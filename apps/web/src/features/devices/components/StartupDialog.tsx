import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import type { Device } from '@palisade/contract';
import { CopyBlock } from './CopyBlock';
import { startupCommand } from './device-status';

const SECRET_FILE = '/etc/palisade/agent.secret';

interface StartupDialogProps {
  device: Device;
  /** Known only right after it was set: shown this once. */
  password: string | null;
  onClose: () => void;
}

/** How to start the agent on the sensor: the password file (once) and the command. */
export function StartupDialog({ device, password, onClose }: StartupDialogProps) {
  const { t } = useTranslation();
  const command = startupCommand(window.location.origin, device.id);
  // Single quotes cannot occur in a generated password; the shell takes it verbatim.
  const secret =
    password === null
      ? null
      : [
          'install -d -m 700 /etc/palisade',
          `printf '%s' '${password.replaceAll("'", `'\\''`)}' > ${SECRET_FILE}`,
          `chmod 600 ${SECRET_FILE}`,
        ].join('\n');
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="startup-dialog-title">
      <DialogTitle id="startup-dialog-title">
        {t('devices.startup.title', { name: device.name })}
      </DialogTitle>
      <DialogContent dividers>
        {secret !== null && (
          <>
            <Alert severity="warning" sx={{ mb: 1 }}>
              {t('devices.startup.passwordOnce')}
            </Alert>
            <Typography variant="subtitle2" component="h3">
              {t('devices.startup.passwordStep', { file: SECRET_FILE })}
            </Typography>
            <CopyBlock text={secret} label={t('devices.startup.passwordLabel')} />
          </>
        )}
        {secret === null && (
          <Typography color="text.secondary" sx={{ mb: 1 }}>
            {t('devices.startup.passwordKnown', { file: SECRET_FILE })}
          </Typography>
        )}
        <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
          {t('devices.startup.commandStep')}
        </Typography>
        <CopyBlock text={command} label={t('devices.startup.commandLabel')} />
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
