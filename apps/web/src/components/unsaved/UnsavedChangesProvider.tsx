import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../page/ConfirmDialog';
import { useStore } from '../../lib/store';
import { UnsavedChangesContext, type UnsavedChanges } from './context';
import { createUnsavedRegistry, dirtyEntries } from './unsaved-registry';

interface Question {
  body?: string;
  discard: () => void;
}

/** Leaving for another address, or only another `?tab=`, counts; the same address does not. */
const leavesScreen: BlockerFunction = ({ currentLocation, nextLocation }) =>
  currentLocation.pathname !== nextLocation.pathname ||
  currentLocation.search !== nextLocation.search;

/**
 * Holds every open editor's unsaved state and asks one question, "Discard changes?", before
 * any of them is thrown away: when an editor closes (its own `askBefore`), when the console
 * navigates (the router's blocker; a router allows one, so it lives here), and when the page
 * itself is left or reloaded (the browser's own `beforeunload` question). Needs a data router.
 */
export function UnsavedChangesProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [registry] = useState(createUnsavedRegistry);
  const [question, setQuestion] = useState<Question | null>(null);
  const anyDirty = dirtyEntries(useStore(registry)).length > 0;

  const blocker = useBlocker(
    useCallback<BlockerFunction>(
      (navigation) => dirtyEntries(registry.get()).length > 0 && leavesScreen(navigation),
      [registry],
    ),
  );

  useEffect(() => {
    // Only while something is unsaved, so an untouched page stays eligible for the back cache.
    if (!anyDirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [anyDirty]);

  const context = useMemo<UnsavedChanges>(
    () => ({ registry, ask: (discard, body) => setQuestion({ discard, body }) }),
    [registry],
  );

  const blocked = blocker.state === 'blocked';
  const dirtyNow = blocked ? dirtyEntries(registry.get()) : [];
  const body =
    question?.body ?? (dirtyNow.length === 1 ? dirtyNow[0]?.body : undefined) ?? t('unsaved.body');
  const keep = () => {
    setQuestion(null);
    if (blocker.state === 'blocked') blocker.reset();
  };
  const discard = () => {
    setQuestion(null);
    if (blocker.state === 'blocked') blocker.proceed();
    else question?.discard();
  };

  return (
    <UnsavedChangesContext.Provider value={context}>
      {children}
      <ConfirmDialog
        open={question !== null || blocked}
        title={t('unsaved.title')}
        body={body}
        confirmLabel={t('unsaved.discard')}
        cancelLabel={t('unsaved.keepEditing')}
        onCancel={keep}
        onConfirm={discard}
      />
    </UnsavedChangesContext.Provider>
  );
}
