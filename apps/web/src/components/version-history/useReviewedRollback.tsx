import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChangePreview, RollbackResponse, VersionEntry } from '@palisade/contract';
import { ChangeReviewDialog } from '../change-review/ChangeReviewDialog';
import { useLockoutRefusal } from '../lockout/useLockoutRefusal';
import { notifyApiError } from '../notifications/notify';
import { notifications, type NoticeInput } from '../notifications/queue';
import { previewRollback, useRollback } from './api';

interface ReviewedRollbackOptions {
  base: string;
  invalidate: readonly (readonly unknown[])[];
  /** The newest version: a rollback becomes the next one. */
  newest: number | undefined;
  /** Administrators may send a rollback the lock-out check refused with the override. */
  canOverrideLockout: boolean;
  onRolledBack: () => void;
}

/**
 * "Roll back to this version" as a save is sent: the rollback's preview first, shown in Review
 * changes (how many devices, what each receives, any it would cut off); Confirm rolls back. A
 * rollback refused because it would cut a device off shows the refusal, and an Administrator
 * may apply it anyway (`override_lockout`), as in the ruleset editor.
 */
export function useReviewedRollback({
  base,
  invalidate,
  newest,
  canOverrideLockout,
  onRolledBack,
}: ReviewedRollbackOptions): {
  start: (entry: VersionEntry) => Promise<void>;
  busy: boolean;
  dialogs: ReactNode;
} {
  const { t } = useTranslation();
  const rollback = useRollback(base, invalidate);
  const [previewing, setPreviewing] = useState(false);
  const [reviewing, setReviewing] = useState<{
    entry: VersionEntry;
    preview: ChangePreview;
  } | null>(null);
  const lockout = useLockoutRefusal<VersionEntry>(canOverrideLockout);

  const start = async (entry: VersionEntry) => {
    setPreviewing(true);
    try {
      const preview = await previewRollback(base, { version: entry.version });
      setReviewing({ entry, preview });
    } catch (failure) {
      notifyApiError(failure);
    } finally {
      setPreviewing(false);
    }
  };

  const roll = async (entry: VersionEntry, override: boolean) => {
    try {
      const result = await rollback.mutateAsync({
        version: entry.version,
        ...(override ? { override_lockout: true } : {}),
      });
      onRolledBack();
      notifications.push(rolledBackNotice(entry.version, result));
    } catch (failure) {
      if (!lockout.refusedBy(failure, entry)) notifyApiError(failure);
    }
  };

  const dialogs = (
    <>
      {reviewing !== null && (
        <ChangeReviewDialog
          preview={reviewing.preview}
          title={t('versions.confirmTitle', { version: reviewing.entry.version })}
          intro={t('versions.confirmBody', {
            version: reviewing.entry.version,
            next: (newest ?? 0) + 1,
          })}
          confirmLabel={t('versions.rollBack')}
          onConfirm={() => {
            setReviewing(null);
            void roll(reviewing.entry, false);
          }}
          onCancel={() => setReviewing(null)}
        />
      )}
      {lockout.dialog((entry) => void roll(entry, true))}
    </>
  );
  return { start, busy: previewing || rollback.isPending, dialogs };
}

/** What the rollback did: nothing, restored, or restored with rules that render differently. */
function rolledBackNotice(from: number, result: RollbackResponse): NoticeInput {
  const differs = result.render_differs;
  if (!result.changed)
    return { content: 'versions.unchanged', params: { version: from }, color: 'info' };
  if (differs === null)
    return {
      content: 'versions.rolledBack',
      params: { from, version: result.version },
      color: 'success',
    };
  return {
    content: 'versions.renderDiffers',
    params: { from, version: result.version, n: differs.added + differs.removed + differs.changed },
    color: 'warning',
  };
}
