import { useCallback, useContext, useEffect, useId, useRef } from 'react';
import { UnsavedChangesContext, type UnsavedChanges } from './context';
import { dirtyEntries, removeUnsavedEntry, setUnsavedEntry } from './unsaved-registry';

function useUnsavedChanges(): UnsavedChanges {
  const context = useContext(UnsavedChangesContext);
  if (context === null) throw new Error('an editor is rendered outside UnsavedChangesProvider');
  return context;
}

export interface UnsavedChangesGuard {
  /** Runs `close` at once when nothing is unsaved, else only after "Discard" is chosen. */
  askBefore: (close: () => void) => void;
  /** After a save, before leaving: the edits are kept, so nothing is asked any more. */
  release: () => void;
}

/**
 * An editor's part in "nothing typed is lost": `dirty` must mean "differs from what was
 * loaded" (react-hook-form's `formState.isDirty` does), so undoing an edit makes it clean.
 * While dirty, leaving the screen or the page asks first; closes go through `askBefore`.
 * `body` says what would be lost, in place of the general sentence.
 */
export function useUnsavedChangesGuard(dirty: boolean, body?: string): UnsavedChangesGuard {
  const { registry, ask } = useUnsavedChanges();
  const id = useId();
  const released = useRef(false);

  useEffect(() => {
    // A release holds until the editor is clean again (saved and reloaded, or closed).
    if (!dirty) released.current = false;
    setUnsavedEntry(registry, id, { dirty: dirty && !released.current, body });
  }, [registry, id, dirty, body]);
  useEffect(() => () => removeUnsavedEntry(registry, id), [registry, id]);

  const askBefore = useCallback(
    (close: () => void) => (dirty && !released.current ? ask(close, body) : close()),
    [ask, dirty, body],
  );
  const release = useCallback(() => {
    released.current = true;
    setUnsavedEntry(registry, id, { dirty: false, body });
  }, [registry, id, body]);
  return { askBefore, release };
}

/** For leaving by other means than navigation (signing out): asks when any editor is dirty. */
export function useAskBeforeLeaving(): (leave: () => void) => void {
  const { registry, ask } = useUnsavedChanges();
  return useCallback(
    (leave: () => void) => (dirtyEntries(registry.get()).length > 0 ? ask(leave) : leave()),
    [registry, ask],
  );
}
