import { useState, type ReactNode } from 'react';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { notifyApiError } from '../notifications/notify';
import { withProgress } from '../notifications/queue';
import { ConfirmDialog } from './ConfirmDialog';

/** Translation keys of a delete: the question (its body gets `{{name}}`) and the notices. */
export interface ConfirmedDeleteTexts {
  title: ParseKeys;
  body: ParseKeys;
  deleting: ParseKeys;
  deleted: ParseKeys;
  /** Said for a 409: the item is still in use. */
  conflict?: ParseKeys;
}

/**
 * A list's delete action: `ask(item)` opens the question; confirming runs `remove` under the
 * progress and success notices, and a failure goes to the shared error handler. Render
 * `dialog` once in the list.
 */
export function useConfirmedDelete<T extends { id: number; name: string }>(
  texts: ConfirmedDeleteTexts,
  remove: (id: number) => Promise<unknown>,
): { ask: (item: T) => void; dialog: ReactNode } {
  const { t } = useTranslation();
  const [doomed, setDoomed] = useState<T | null>(null);
  const confirm = async (item: T) => {
    setDoomed(null);
    try {
      await withProgress({ progress: texts.deleting, success: texts.deleted }, () =>
        remove(item.id),
      );
    } catch (failure) {
      notifyApiError(failure, texts.conflict === undefined ? {} : { conflict: texts.conflict });
    }
  };
  const dialog = (
    <ConfirmDialog
      open={doomed !== null}
      title={t(texts.title)}
      body={t(texts.body, { name: doomed?.name ?? '' })}
      confirmLabel={t('common.delete')}
      onCancel={() => setDoomed(null)}
      onConfirm={() => doomed !== null && void confirm(doomed)}
    />
  );
  return { ask: setDoomed, dialog };
}
