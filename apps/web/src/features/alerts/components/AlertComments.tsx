import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import type { AlertComment } from '@palisade/contract';
import { notifyApiError, notifySuccess } from '../../../components/notifications/notify';
import { ConfirmDialog } from '../../../components/page/ConfirmDialog';
import { useCommentAlert, useDeleteComment, useEditComment } from '../api/comment-alert';
import { formatDateTime } from '../../../lib/format-date';
import { session } from '../../../lib/session';
import { useStore } from '../../../lib/store';
import { Section } from './AlertEvidence';

const MAX_COMMENT = 2000;

/**
 * The analysts' comments on an alert, oldest first, and (for those who triage) a new one. A
 * comment's author, or an Administrator, may correct or delete it; the server checks the same.
 */
export function AlertComments(props: {
  alertId: number;
  comments: AlertComment[];
  canWrite: boolean;
}) {
  const { alertId, comments, canWrite } = props;
  const { t } = useTranslation();
  const { user: me, authDisabled } = useStore(session);
  const add = useCommentAlert(alertId);
  const remove = useDeleteComment(alertId);
  const [text, setText] = useState('');
  const [doomed, setDoomed] = useState<AlertComment | null>(null);
  const body = text.trim();
  // With auth disabled everyone acts as the organization's Administrator, as on the server.
  const mayChange = (c: AlertComment) =>
    canWrite &&
    (authDisabled || (me !== null && (c.author_id === me.id || me.role === 'Administrator')));

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

  const confirmDelete = async (comment: AlertComment) => {
    setDoomed(null);
    try {
      await remove.mutateAsync(comment.id);
      notifySuccess('alerts.comments.deleted');
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
          {comments.map((c) => (
            <CommentItem
              key={c.id}
              alertId={alertId}
              comment={c}
              mayChange={mayChange(c)}
              onDelete={() => setDoomed(c)}
            />
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
      <ConfirmDialog
        open={doomed !== null}
        title={t('alerts.comments.deleteTitle')}
        body={doomed?.body ?? ''}
        confirmLabel={t('common.delete')}
        onCancel={() => setDoomed(null)}
        onConfirm={() => doomed !== null && void confirmDelete(doomed)}
      />
    </Section>
  );
}

/** One comment: its byline and text, or (being corrected) a box with its text. */
function CommentItem(props: {
  alertId: number;
  comment: AlertComment;
  mayChange: boolean;
  onDelete: () => void;
}) {
  const { alertId, comment: c, mayChange, onDelete } = props;
  const { t, i18n } = useTranslation();
  const edit = useEditComment(alertId);
  const [draft, setDraft] = useState<string | null>(null);
  const corrected = draft?.trim() ?? '';

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (corrected === '' || corrected === c.body) {
      setDraft(null);
      return;
    }
    try {
      await edit.mutateAsync({ id: c.id, body: corrected });
      setDraft(null);
      notifySuccess('alerts.comments.updated');
    } catch (failure) {
      notifyApiError(failure);
    }
  };

  return (
    <Box component="li" data-testid="alert-comment">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minHeight: 28 }}>
        <Typography variant="caption" color="text.secondary" component="div" sx={{ flex: 1 }}>
          {t('alerts.comments.byline', {
            author: c.author ?? t('alerts.comments.deletedUser'),
            time: formatDateTime(c.created_at, i18n.language),
          })}
          {c.edited_at !== null && (
            <Tooltip title={formatDateTime(c.edited_at, i18n.language)}>
              <span> · {t('alerts.comments.edited')}</span>
            </Tooltip>
          )}
        </Typography>
        {mayChange && draft === null && (
          <>
            <Tooltip title={t('alerts.comments.edit')}>
              <IconButton
                size="small"
                aria-label={t('alerts.comments.edit')}
                onClick={() => setDraft(c.body)}
              >
                <EditOutlinedIcon fontSize="inherit" />
              </IconButton>
            </Tooltip>
            <Tooltip title={t('alerts.comments.delete')}>
              <IconButton size="small" aria-label={t('alerts.comments.delete')} onClick={onDelete}>
                <DeleteOutlineIcon fontSize="inherit" />
              </IconButton>
            </Tooltip>
          </>
        )}
      </Box>
      {draft === null ? (
        <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {c.body}
        </Typography>
      ) : (
        <Box
          component="form"
          onSubmit={(event) => void save(event)}
          sx={{ display: 'grid', gap: 1 }}
        >
          <TextField
            size="small"
            multiline
            maxRows={6}
            fullWidth
            autoFocus
            label={t('alerts.comments.editLabel')}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.stopPropagation();
                setDraft(null);
              }
            }}
            slotProps={{ htmlInput: { maxLength: MAX_COMMENT } }}
          />
          <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
            <Button size="small" onClick={() => setDraft(null)}>
              {t('common.cancel')}
            </Button>
            <Button
              size="small"
              type="submit"
              variant="outlined"
              disabled={corrected === ''}
              loading={edit.isPending}
            >
              {t('common.save')}
            </Button>
          </Box>
        </Box>
      )}
    </Box>
  );
}
