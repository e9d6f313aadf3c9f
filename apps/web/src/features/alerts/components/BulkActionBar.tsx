import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { AlertBulkAction, AlertFilters } from '@palisade/contract';
import type { z } from 'zod';
import { notifyApiError, notifySuccess } from '../../../components/notifications/notify';
import { useBulkAlerts, useBulkAlertsCount } from '../api/bulk-alerts';
import { exportAlerts } from '../api/export-alerts';

type Action = z.infer<typeof AlertBulkAction>;
/** Each action's texts: the button, the question with the count, the confirm button, the notice. */
const TEXTS = {
  acknowledge: {
    button: 'alerts.bulk.action.acknowledge',
    confirm: 'alerts.bulk.confirm.acknowledge',
    apply: 'alerts.bulk.apply.acknowledge',
    done: 'alerts.bulk.done.acknowledge',
  },
  reopen: {
    button: 'alerts.bulk.action.reopen',
    confirm: 'alerts.bulk.confirm.reopen',
    apply: 'alerts.bulk.apply.reopen',
    done: 'alerts.bulk.done.reopen',
  },
  star: {
    button: 'alerts.bulk.action.star',
    confirm: 'alerts.bulk.confirm.star',
    apply: 'alerts.bulk.apply.star',
    done: 'alerts.bulk.done.star',
  },
  unstar: {
    button: 'alerts.bulk.action.unstar',
    confirm: 'alerts.bulk.confirm.unstar',
    apply: 'alerts.bulk.apply.unstar',
    done: 'alerts.bulk.done.unstar',
  },
  comment: {
    button: 'alerts.bulk.action.comment',
    confirm: 'alerts.bulk.confirm.comment',
    apply: 'alerts.bulk.apply.comment',
    done: 'alerts.bulk.done.comment',
  },
} as const satisfies Record<Action, Record<string, string>>;
const ACTIONS = Object.keys(TEXTS) as Action[];

/**
 * Triage of every alert the filters match, not only the page in view: the server first counts
 * what the action would change, the user confirms that count, then the server changes them.
 * Export downloads the same filters' alerts. Viewers get the export only.
 */
export function BulkActionBar({ filters, canWrite }: { filters: AlertFilters; canWrite: boolean }) {
  const { t, i18n } = useTranslation();
  const count = useBulkAlertsCount();
  const bulk = useBulkAlerts();
  const [pending, setPending] = useState<{ action: Action; count: number } | null>(null);
  const [comment, setComment] = useState('');

  const ask = async (action: Action) => {
    try {
      const answer = await count.mutateAsync({ filter: filters, action });
      setComment('');
      setPending({ action, count: answer.count });
    } catch (failure) {
      notifyApiError(failure);
    }
  };
  const confirm = async () => {
    if (!pending) return;
    try {
      await bulk.mutateAsync({
        filter: filters,
        action: pending.action,
        ...(pending.action === 'comment' ? { comment: comment.trim() } : {}),
      });
      notifySuccess(TEXTS[pending.action].done);
      setPending(null);
    } catch (failure) {
      notifyApiError(failure);
    }
  };
  const download = (format: 'csv' | 'ndjson') =>
    exportAlerts(filters, format).catch((failure: unknown) => notifyApiError(failure));

  const n = pending ? pending.count.toLocaleString(i18n.language) : '';
  const needsText = pending?.action === 'comment' && comment.trim() === '';
  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{ mb: 1, flexWrap: 'wrap' }}
      aria-label={t('alerts.bulk.label')}
      role="toolbar"
    >
      {canWrite &&
        ACTIONS.map((action) => (
          <Button
            key={action}
            size="small"
            variant="outlined"
            disabled={count.isPending}
            onClick={() => void ask(action)}
          >
            {t(TEXTS[action].button)}
          </Button>
        ))}
      <Button size="small" onClick={() => void download('csv')}>
        {t('alerts.bulk.exportCsv')}
      </Button>
      <Button size="small" onClick={() => void download('ndjson')}>
        {t('alerts.bulk.exportNdjson')}
      </Button>
      <Dialog open={pending !== null} onClose={() => setPending(null)} fullWidth maxWidth="sm">
        {pending && (
          <>
            <DialogTitle>{t(TEXTS[pending.action].confirm, { n })}</DialogTitle>
            <DialogContent>
              {pending.count === 0 ? t('alerts.bulk.nothing') : t('alerts.bulk.scope')}
              {pending.action === 'comment' && pending.count > 0 && (
                <TextField
                  autoFocus
                  fullWidth
                  multiline
                  margin="dense"
                  label={t('alerts.bulk.comment')}
                  value={comment}
                  onChange={(event) => setComment(event.target.value)}
                  slotProps={{ htmlInput: { maxLength: 2000 } }}
                />
              )}
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setPending(null)}>{t('common.cancel')}</Button>
              <Button
                variant="contained"
                disabled={pending.count === 0 || needsText || bulk.isPending}
                onClick={() => void confirm()}
              >
                {t(TEXTS[pending.action].apply, { n })}
              </Button>
            </DialogActions>
          </>
        )}
      </Dialog>
    </Stack>
  );
}
