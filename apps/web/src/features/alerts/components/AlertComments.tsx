import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AlertComment } from '@palisade/contract';
import { notifyApiError, notifySuccess } from '../../../components/notifications/notify';
import { useCommentAlert } from '../api/comment-alert';
import { formatDateTime } from '../../../lib/format-date';
import { Section } from './AlertEvidence';

const MAX_COMMENT = 2000;

/** The analysts' comments on an alert, oldest first, and (for those who triage) a new one. */
export function AlertComments(props: {
  alertId: number;
  comments: AlertComment[];
  canWrite: boolean;
}) {
  const { alertId, comments, canWrite } = props;
  const { t, i18n } = useTranslation();
  const add = useCommentAlert(alertId);
  const [text, setText] = useState('');
  const body = text.trim();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (body === '') return;
    try {
      await add.mutateAsync(body);
      setText('');
      notifySuccess('alerts.comments.added');
    } catch (failure) {
      notifyApiError(failure);
    }
  };

  return (
    <Section title={t('alerts.comments.title', { count: comments.length })}>
      {comments.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('alerts.comments.none')}
        </Typography>
      ) : (
        <Box component="ol" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1 }}>
          {comments.map((c, index) => (
            <Box component="li" key={index} data-testid="alert-comment">
              <Typography variant="caption" color="text.secondary" component="div">
                {t('alerts.comments.byline', {
                  author: c.author ?? t('alerts.comments.deletedUser'),
                  time: formatDateTime(c.created_at, i18n.language),
                })}
              </Typography>
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {c.body}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
      {canWrite && (
        <Box
          component="form"
          onSubmit={(event) => void submit(event)}
          sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mt: 1 }}
        >
          <TextField
            size="small"
            multiline
            maxRows={6}
            fullWidth
            label={t('alerts.comments.new')}
            value={text}
            onChange={(event) => setText(event.target.value)}
            slotProps={{ htmlInput: { maxLength: MAX_COMMENT } }}
          />
          <Button type="submit" variant="outlined" disabled={body === ''} loading={add.isPending}>
            {t('alerts.comments.add')}
          </Button>
        </Box>
      )}
    </Section>
  );
}
