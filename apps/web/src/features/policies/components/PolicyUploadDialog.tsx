import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import type { Policy } from '@palisade/contract';
import { useChangeReview } from '../../../components/change-review/useChangeReview';
import { ApiError } from '../../../lib/api-client';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import type { UploadProgress } from '../../../lib/upload';
import {
  POLICY_UPLOAD_ACCEPT,
  previewPolicyUpload,
  useUploadPolicy,
  type PolicyUploadAnswer,
} from '../api/upload-policy';

/** Upload custom policies: enable/disable/drop/modify.conf and our export files into a policy. */
export function PolicyUploadDialog({
  policy,
  onClose,
}: {
  policy: Policy | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={policy !== null} onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>
        {policy === null ? '' : t('policies.upload.title', { name: policy.name })}
      </DialogTitle>
      {policy !== null && <UploadBody policy={policy} onClose={onClose} />}
    </Dialog>
  );
}

function UploadBody({ policy, onClose }: { policy: Policy; onClose: () => void }) {
  const { t } = useTranslation();
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [report, setReport] = useState<PolicyUploadAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const upload = useUploadPolicy(policy.id, setProgress);
  const review = useChangeReview();
  const [busy, setBusy] = useState(false);

  const start = async () => {
    setError(null);
    setReport(null);
    setBusy(true);
    try {
      // Reviewed first when the policy's devices would receive something, as every save is.
      const answer = await review.reviewThenSave({
        preview: () =>
          previewPolicyUpload(policy.id, files, setProgress).finally(() => setProgress(null)),
        save: () => upload.mutateAsync(files),
        labels: { progress: 'policies.notices.uploading', success: 'policies.notices.uploaded' },
      });
      if (answer !== null) setReport(answer);
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 413) {
        setError(t('policies.upload.tooLarge'));
      } else {
        const message = apiErrorMessage(failure);
        setError(errorText(message, t));
      }
    } finally {
      setProgress(null);
      setBusy(false);
    }
  };

  return (
    <>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('policies.upload.help')}</DialogContentText>
        <Button component="label" variant="outlined" startIcon={<UploadFileIcon />}>
          {t('rules.import.choose')}
          <input
            hidden
            type="file"
            multiple
            accept={POLICY_UPLOAD_ACCEPT}
            data-testid="policy-file-input"
            onChange={(event) => setFiles([...(event.target.files ?? [])])}
          />
        </Button>
        <Typography component="span" sx={{ mx: 2 }}>
          {files.length === 0 ? t('rules.import.none') : files.map((f) => f.name).join(', ')}
        </Typography>
        {progress !== null && (
          <LinearProgress
            sx={{ mt: 2 }}
            variant={progress.percent === null ? 'indeterminate' : 'determinate'}
            value={progress.percent ?? 0}
            aria-label={t('rules.import.progress')}
          />
        )}
        {error !== null && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
        {report !== null && (
          <Stack spacing={1} sx={{ mt: 2 }} data-testid="policy-upload-report">
            <Alert severity="success">{t('policies.upload.done')}</Alert>
            <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
              {(['enable', 'disable', 'drop', 'modify'] as const).map((kind) => (
                <Chip key={kind} label={`${kind}.conf: ${report.added[kind]}`} />
              ))}
              {report.imported_export && <Chip color="info" label={t('policies.upload.export')} />}
            </Stack>
            {report.unknown_groups.length > 0 && (
              <Alert severity="warning">
                {t('policies.upload.unknownGroups', { list: report.unknown_groups.join(', ') })}
              </Alert>
            )}
            {report.unknown_rules.length > 0 && (
              <Alert severity="warning">
                {t('policies.upload.unknownRules', {
                  list: report.unknown_rules.slice(0, 50).join(', '),
                })}
              </Alert>
            )}
          </Stack>
        )}
        {review.dialog}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
        <Button
          variant="contained"
          disabled={files.length === 0 || busy}
          loading={busy}
          onClick={() => void start()}
        >
          {t('rules.import.upload')}
        </Button>
      </DialogActions>
    </>
  );
}
