import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import SyncIcon from '@mui/icons-material/Sync';
import type { RuleSource, RuleSourceUpdateSummary } from '@palisade/contract';
import { notifyApiError } from '../../../components/notifications/notify';
import { notifications, type NoticeInput } from '../../../components/notifications/queue';
import { updateQueryOptions } from '../api/get-update';
import { followUpdate } from '../api/follow-update';
import { useStartUpdate } from '../api/start-update';
import { isUpdateActive } from '../api/update-status';
import { PHASE_LABELS } from './labels';

/** What a finished update tells the user, by its status. */
function finishedNotice(update: RuleSourceUpdateSummary): NoticeInput | null {
  switch (update.status) {
    case 'succeeded':
      return {
        content: 'ruleSources.notices.updateDone',
        params: { added: update.added, removed: update.removed, changed: update.changed },
        color: 'success',
      };
    case 'unchanged':
      return { content: 'ruleSources.notices.unchanged', color: 'info' };
    case 'failed':
      return {
        content: 'ruleSources.notices.failed',
        params: { error: update.error ?? '' },
        color: 'error',
      };
    case 'queued':
    case 'running':
      return null;
  }
}

/**
 * "Update now": queues an update and follows it (polling) until it ends, showing its phase;
 * an update already queued or running (by schedule, or from another console) shows the same.
 */
export function UpdateNowButton({ source }: { source: RuleSource }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const start = useStartUpdate();
  const [followed, setFollowed] = useState<number | null>(null);
  // Only shows the followed update's phase; followUpdate does the polling.
  const update = useQuery({
    ...updateQueryOptions(source.id, followed ?? 0),
    enabled: followed !== null,
    refetchInterval: false,
  });
  const current = followed !== null ? (update.data ?? null) : source.last_update;
  const active = start.isPending || followed !== null || isUpdateActive(current?.status);

  const run = async () => {
    try {
      const started = await start.mutateAsync(source.id);
      setFollowed(started.update_id);
      const finished = await followUpdate(client, source.id, started.update_id);
      const notice = finishedNotice(finished);
      if (notice !== null) notifications.push(notice);
    } catch (failure) {
      notifyApiError(failure);
    } finally {
      setFollowed(null);
    }
  };

  const label = !active
    ? t('ruleSources.updateNow')
    : current?.status === 'running' && current.phase !== null
      ? t(PHASE_LABELS[current.phase])
      : t('ruleSources.status.queued');
  return (
    <Button
      size="small"
      variant="outlined"
      disabled={active}
      aria-label={t('ruleSources.updateNowName', { name: source.name })}
      startIcon={
        active ? <CircularProgress size={14} role="progressbar" aria-label={label} /> : <SyncIcon />
      }
      onClick={() => void run()}
      sx={{ whiteSpace: 'nowrap' }}
    >
      {label}
    </Button>
  );
}
