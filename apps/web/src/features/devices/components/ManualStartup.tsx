import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import type { Device } from '@palisade/contract';
import { CopyBlock } from './CopyBlock';
import { startupCommand } from './device-status';

const SECRET_FILE = '/etc/palisade/agent.secret';

interface ManualStartupProps {
  device: Device;
  /** Known only right after it was set: shown this once. */
  password: string | null;
}

/** Running the agent by hand, without install.sh: the password file (once) and the command. */
export function ManualStartup({ device, password }: ManualStartupProps) {
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
    <>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        {t('devices.startup.manualIntro')}
      </Typography>
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
    </>
  );
}
