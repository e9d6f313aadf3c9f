import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import type { FlowbitEnabledRule, Policy } from '@palisade/contract';
import { notifyApiError } from '../../../components/notifications/notify';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { downloadPolicyRules, downloadPolicyThresholds } from '../api/download-policy';
import { policyRenderQueryOptions } from '../api/render-policy';

/** Lines drawn in the dialog; the download has them all. */
export const PREVIEW_MAX_LINES = 2000;

const pre = {
  p: 2,
  m: 0,
  bgcolor: 'action.hover',
  borderRadius: 1,
  fontSize: 12,
  whiteSpace: 'pre',
  overflow: 'auto',
  maxHeight: '50vh',
  // Rules read left to right in every language; `start` of this dir="ltr" box is its left.
  textAlign: 'start',
} as const;

/** The exact text a sensor loads for the policy (GET /policies/{id}/render). */
export function PolicyPreviewDialog({
  policy,
  onClose,
}: {
  policy: Policy | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={policy !== null} onClose={onClose} maxWidth="lg" fullWidth>
      <DialogTitle>
        {policy === null ? '' : t('policies.preview.title', { name: policy.name })}
      </DialogTitle>
      {policy !== null && <Preview policy={policy} onClose={onClose} />}
    </Dialog>
  );
}

function Preview({ policy, onClose }: { policy: Policy; onClose: () => void }) {
  const { t } = useTranslation();
  const render = useQuery(policyRenderQueryOptions(policy.id));
  const error = render.isError ? apiErrorMessage(render.error) : null;
  const lines = render.data?.rules.split('\n') ?? [];
  const shown = lines.slice(0, PREVIEW_MAX_LINES).join('\n');
  return (
    <>
      <DialogContent>
        {render.isPending && <LinearProgress aria-label={t('common.loading')} />}
        {error !== null && <Alert severity="error">{errorText(error, t)}</Alert>}
        {render.data !== undefined && (
          <Stack spacing={2}>
            <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
              <Chip label={t('policies.preview.version', { version: render.data.version })} />
              <Chip label={t('policies.preview.ruleCount', { n: render.data.rule_count })} />
            </Stack>
            {render.data.rule_count === 0 ? (
              <Alert severity="info">{t('policies.preview.empty')}</Alert>
            ) : (
              <Box component="pre" dir="ltr" sx={pre} tabIndex={0} data-testid="policy-rendered">
                {shown}
              </Box>
            )}
            {lines.length > PREVIEW_MAX_LINES && (
              <Typography variant="body2" color="text.secondary">
                {t('policies.preview.truncated', { n: PREVIEW_MAX_LINES })}
              </Typography>
            )}
            {render.data.flowbit_rules.length > 0 && (
              <FlowbitRules rules={render.data.flowbit_rules} />
            )}
            {render.data.thresholds !== '' && (
              <>
                <Typography variant="subtitle2">threshold.config</Typography>
                <Box
                  component="pre"
                  dir="ltr"
                  sx={pre}
                  tabIndex={0}
                  data-testid="policy-thresholds"
                >
                  {render.data.thresholds}
                </Box>
              </>
            )}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button
          startIcon={<DownloadIcon />}
          onClick={() => void downloadPolicyRules(policy.id).catch(notifyApiError)}
        >
          {t('policies.downloadRules')}
        </Button>
        {render.data !== undefined && render.data.thresholds !== '' && (
          <Button
            startIcon={<DownloadIcon />}
            onClick={() => void downloadPolicyThresholds(policy.id).catch(notifyApiError)}
          >
            {t('policies.downloadThresholds')}
          </Button>
        )}
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </>
  );
}

/** The rules enabled only because an enabled rule checks a flowbit they set (noalert). */
function FlowbitRules({ rules }: { rules: FlowbitEnabledRule[] }) {
  const { t } = useTranslation();
  return (
    <Box data-testid="policy-flowbit-rules">
      <Typography variant="subtitle2">
        {t('policies.preview.flowbitRules', { n: rules.length })}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('policies.preview.flowbitRulesHelp')}
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 3, maxHeight: '30vh', overflow: 'auto' }}>
        {rules.map((rule) => (
          <Typography component="li" variant="body2" key={rule.rule_id}>
            <bdi>{`${rule.gid}:${rule.sid}`}</bdi> {rule.msg}{' '}
            <Typography component="span" variant="body2" color="text.secondary">
              ({t('policies.preview.flowbitsNeeded', { bits: rule.flowbits.join(', ') })})
            </Typography>
          </Typography>
        ))}
      </Box>
    </Box>
  );
}
