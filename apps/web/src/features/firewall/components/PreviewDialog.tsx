import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { deviceFirewallQueryOptions } from '../api/device-firewall';

const codeSx = {
  m: 0,
  p: 1.5,
  bgcolor: 'action.hover',
  borderRadius: 1,
  fontFamily: 'monospace',
  fontSize: 13,
  whiteSpace: 'pre',
  overflow: 'auto',
  maxHeight: '55vh',
  // With dir="ltr" on the box: the right-to-left style plugin flips `direction` and 'left'.
  textAlign: 'start',
} as const;

interface PreviewDialogProps {
  device: { id: number; name: string };
  onClose: () => void;
}

/** The exact nftables script and route commands the device receives. */
export function PreviewDialog({ device, onClose }: PreviewDialogProps) {
  const { t } = useTranslation();
  const preview = useQuery(deviceFirewallQueryOptions(device.id));
  const message = preview.isError ? apiErrorMessage(preview.error) : null;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="lg" aria-labelledby="preview-dialog-title">
      <DialogTitle id="preview-dialog-title">
        {t('firewall.preview.title', { name: device.name })}
      </DialogTitle>
      <DialogContent dividers>
        {preview.isPending && <LinearProgress aria-label={t('common.loading')} />}
        {message !== null && <Alert severity="error">{errorText(message, t)}</Alert>}
        {preview.data !== undefined && (
          <>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {t('firewall.preview.version', { version: preview.data.config_version })}
            </Typography>
            {preview.data.problems.map((problem, index) => (
              <Alert key={index} severity="warning" sx={{ mb: 1 }}>
                {problem.rule === null
                  ? `${problem.field}: ${problem.message}`
                  : t('firewall.preview.problem', {
                      rule: problem.rule + 1,
                      field: problem.field,
                      message: problem.message,
                    })}
              </Alert>
            ))}
            <Typography variant="subtitle2" component="h3" sx={{ mt: 1 }}>
              {t('firewall.preview.nftables')}
            </Typography>
            {preview.data.nftables === null ? (
              // A null script with problems is a ruleset that cannot render (shown above), not none.
              preview.data.problems.length === 0 && (
                <Typography color="text.secondary">{t('firewall.preview.noFirewall')}</Typography>
              )
            ) : (
              <Box component="pre" dir="ltr" sx={codeSx} tabIndex={0} data-testid="nftables-script">
                {preview.data.nftables}
              </Box>
            )}
            <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
              {t('firewall.preview.routes')}
            </Typography>
            {preview.data.routes === null ? (
              <Typography color="text.secondary">{t('firewall.preview.noRoutes')}</Typography>
            ) : (
              <Box component="pre" dir="ltr" sx={codeSx} tabIndex={0} data-testid="route-commands">
                {preview.data.routes}
              </Box>
            )}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void preview.refetch()}>{t('firewall.preview.refresh')}</Button>
        <Button variant="contained" onClick={onClose}>
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
