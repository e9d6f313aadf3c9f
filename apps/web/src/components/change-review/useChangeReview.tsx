import { useCallback, useState, type ReactNode } from 'react';
import type { ChangePreview } from '@palisade/contract';
import { withProgress } from '../notifications/queue';
import { ChangeReviewDialog } from './ChangeReviewDialog';

interface ReviewedSave<T> {
  /** The save's preview (its …/preview route with the same body). */
  preview: () => Promise<ChangePreview>;
  save: () => Promise<T>;
  /** Translation keys of the save's progress and success notices. */
  labels: { progress: string; success: string };
}

/**
 * Saves that reach devices are reviewed first: the preview runs, and when it reaches a device
 * (or finds one the change would cut off) the "Review changes" dialog asks; Confirm saves,
 * Cancel resolves null and leaves the editor as it was. A save that reaches no device goes
 * through at once, with the save's own notice. Errors of the preview (a bad body, a refusal)
 * are thrown as the save's would be.
 */
export function useChangeReview(): {
  reviewThenSave: <T>(reviewed: ReviewedSave<T>) => Promise<T | null>;
  dialog: ReactNode;
} {
  const [pending, setPending] = useState<{
    preview: ChangePreview;
    answer: (confirmed: boolean) => void;
  } | null>(null);

  const reviewThenSave = useCallback(async <T,>(reviewed: ReviewedSave<T>) => {
    const preview = await reviewed.preview();
    const reaches = preview.devices_reached > 0 || preview.lockout.length > 0;
    if (reaches) {
      const confirmed = await new Promise<boolean>((answer) => setPending({ preview, answer }));
      setPending(null);
      if (!confirmed) return null;
    }
    // One notice per save, as every other save has: a queue of two would hold back the next.
    return withProgress(reviewed.labels, reviewed.save);
  }, []);

  const dialog =
    pending === null ? null : (
      <ChangeReviewDialog
        preview={pending.preview}
        onConfirm={() => pending.answer(true)}
        onCancel={() => pending.answer(false)}
      />
    );
  return { reviewThenSave, dialog };
}
