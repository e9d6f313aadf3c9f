import { useCallback, useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import type { Device, EnrolmentToken } from '@palisade/contract';
import { notifyApiError } from '../../../components/notifications/notify';
import { ConfirmDialog } from '../../../components/page/ConfirmDialog';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format-date';
import { agentReleaseQueryOptions } from '../api/agent-release';
import { enrolmentStatusQueryOptions, useIssueEnrolment } from '../api/enrolment';
import { CopyBlock } from './CopyBlock';
import { installCommand, installScriptUrl } from './install-command';
import { ManualStartup } from './ManualStartup';

interface EnrolDialogProps {
  device: Device;
  /** Known only right after it was set: offered once under "Advanced". */
  password: string | null;
  /** Unfold "Advanced" at once. */
  manualOpen?: boolean;
  onClose: () => void;
}

/**
 * Putting the agent on a sensor: the install one-liner with a fresh single-use token, its
 * expiry, a way to issue another, and the manual start-up folded under "Advanced".
 */
export function EnrolDialog({ device, password, manualOpen, onClose }: EnrolDialogProps) {
  const { t, i18n } = useTranslation();
  const origin = window.location.origin;
  const status = useQuery(enrolmentStatusQueryOptions(device.id));
  const release = useQuery(agentReleaseQueryOptions);
  const { mutateAsync: issueAsync, isPending: issuing } = useIssueEnrolment(device.id);
  const [token, setToken] = useState<EnrolmentToken | null>(null);
  const [confirming, setConfirming] = useState(false);
  const issuedOnOpen = useRef(false);

  const issueToken = useCallback(async () => {
    try {
      setToken(await issueAsync());
    } catch (failure) {
      notifyApiError(failure);
    }
  }, [issueAsync]);

  // Only the token's hash is kept, so a command can be shown only for a token issued now.
  // Issuing revokes an unused earlier one, which the user may still mean to use: then they decide.
  const current = status.data?.status;
  useEffect(() => {
    if (issuedOnOpen.current || current === undefined || current === 'active') return;
    issuedOnOpen.current = true;
    void issueToken();
  }, [current, issueToken]);

  const revokes = token !== null || current === 'active';
  const statusError = status.isError ? apiErrorMessage(status.error) : null;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="enrol-dialog-title">
      <DialogTitle id="enrol-dialog-title">
        {t('devices.enrol.title', { name: device.name })}
      </DialogTitle>
      <DialogContent dividers>
        {release.data === null && (
          <Alert severity="warning" sx={{ mb: 1 }}>
            {t('devices.enrol.noRelease')}
          </Alert>
        )}
        <Typography variant="subtitle2" component="h3">
          {t('devices.enrol.commandStep')}
        </Typography>
        {token !== null ? (
          <>
            <CopyBlock
              text={installCommand(origin, token.token)}
              label={t('devices.enrol.commandLabel')}
            />
            <Typography variant="body2" color="text.secondary" data-testid="enrolment-expiry">
              {t('devices.enrol.expires', {
                when: formatDateTime(token.expires_at, i18n.language),
              })}
            </Typography>
          </>
        ) : current === 'active' ? (
          <Alert severity="info" sx={{ my: 1 }}>
            {t('devices.enrol.activeHidden', {
              when: formatDateTime(status.data?.expires_at ?? '', i18n.language),
            })}
          </Alert>
        ) : statusError !== null ? (
          <Alert severity="error" sx={{ my: 1 }}>
            {errorText(statusError, t)}
          </Alert>
        ) : (
          <LinearProgress sx={{ my: 2 }} aria-label={t('devices.enrol.issuing')} />
        )}
        <Typography variant="body2" sx={{ mt: 2 }}>
          {t('devices.enrol.installs')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {t('devices.enrol.docs')}{' '}
          <Link href={installScriptUrl(origin)} target="_blank" rel="noreferrer">
            {t('devices.enrol.readScript')}
          </Link>
        </Typography>
        <Accordion disableGutters variant="outlined" defaultExpanded={manualOpen} sx={{ mt: 2 }}>
          <AccordionSummary expandIcon={<ExpandMoreIcon />}>
            {t('devices.enrol.advanced')}
          </AccordionSummary>
          <AccordionDetails>
            <ManualStartup device={device} password={password} />
          </AccordionDetails>
        </Accordion>
      </DialogContent>
      <DialogActions>
        <Button
          disabled={issuing || status.isPending}
          onClick={() => (revokes ? setConfirming(true) : void issueToken())}
        >
          {t('devices.enrol.newToken')}
        </Button>
        <Button variant="contained" onClick={onClose}>
          {t('common.close')}
        </Button>
      </DialogActions>
      <ConfirmDialog
        open={confirming}
        title={t('devices.enrol.newTokenTitle')}
        body={t('devices.enrol.newTokenBody')}
        confirmLabel={t('devices.enrol.newTokenConfirm')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void issueToken();
        }}
      />
    </Dialog>
  );
}
