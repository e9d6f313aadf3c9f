import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import type { ImportReport } from '@palisade/contract';
import { useChangeReview } from '../../../components/change-review/useChangeReview';
import { ApiError } from '../../../lib/api-client';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import type { UploadProgress } from '../../../lib/upload';
import { IMPORT_ACCEPT, previewImport, useImportRules } from '../api/import-rules';
import { ImportReportView } from './ImportReportView';

interface ImportRulesDialogProps {
  open: boolean;
  onClose: () => void;
}

/**
 * Upload custom rules or rulesets: a progress bar while sending, then the import's report. An
 * import that reaches devices (a rule their policies hold is added, revised or removed) is
 * reviewed first, as every save that reaches devices is.
 */
export function ImportRulesDialog({ open, onClose }: ImportRulesDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>{t('rules.import.title')}</DialogTitle>
      {open && <ImportRulesBody onClose={onClose} />}
    </Dialog>
  );
}

function ImportRulesBody({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const upload = useImportRules(setProgress);
  const review = useChangeReview();
  // The files go up twice: first to preview, then to import (see docs/operations.md).
  const [phase, setPhase] = useState<'idle' | 'checking' | 'importing'>('idle');
  const started = { loaded: 0, total: 0, percent: 0 };

  const start = async () => {
    setError(null);
    setReport(null);
    setPhase('checking');
    setProgress(started);
    try {
      const answer = await review.reviewThenSave({
        preview: () => previewImport(files, setProgress).finally(() => setProgress(null)),
        save: () => {
          setPhase('importing');
          setProgress(started);
          return upload.mutateAsync(files);
        },
        labels: { progress: 'rules.notices.importing', success: 'rules.notices.imported' },
      });
      if (answer !== null) setReport(answer);
    } catch (failure) {
      setError(importErrorText(failure, t));
    } finally {
      setProgress(null);
      setPhase('idle');
    }
  };

  const sending = phase !== 'idle';
  const sent = progress !== null && progress.percent === 100;
  return (
    <>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('rules.import.help')}</DialogContentText>
        <Button
          component="label"
          variant="outlined"
          startIcon={<UploadFileIcon />}
          disabled={sending}
        >
          {t('rules.import.choose')}
          <input
            hidden
            type="file"
            multiple
            accept={IMPORT_ACCEPT}
            data-testid="rules-file-input"
            onChange={(event) => setFiles([...(event.target.files ?? [])])}
          />
        </Button>
        <Typography component="span" sx={{ mx: 2 }} data-testid="rules-files-chosen">
          {files.length === 0 ? t('rules.import.none') : files.map((file) => file.name).join(', ')}
        </Typography>
        {progress !== null && (
          <Box sx={{ mt: 3 }}>
            <LinearProgress
              variant={sent || progress.percent === null ? 'indeterminate' : 'determinate'}
              value={progress.percent ?? 0}
              aria-label={t('rules.import.progress')}
            />
            <Typography variant="body2" sx={{ mt: 1 }} color="text.secondary">
              {sent
                ? t(phase === 'checking' ? 'rules.import.checking' : 'rules.import.processing')
                : t('rules.import.sending', { percent: progress.percent ?? 0 })}
            </Typography>
          </Box>
        )}
        {error !== null && (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="import-error">
            {error}
          </Alert>
        )}
        {report !== null && <ImportReportView report={report} />}
        {review.dialog}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
        <Button
          variant="contained"
          disabled={files.length === 0 || sending}
          loading={sending}
          onClick={() => void start()}
        >
          {t('rules.import.upload')}
        </Button>
      </DialogActions>
    </>
  );
}

/** 413 has its own text; everything else goes through the shared handler's catalogue. */
function importErrorText(failure: unknown, t: TFunction): string {
  if (failure instanceof ApiError && failure.status === 413) return t('rules.import.tooLarge');
  const message = apiErrorMessage(failure);
  if (message === null) return '';
  return errorText(message, t);
}
