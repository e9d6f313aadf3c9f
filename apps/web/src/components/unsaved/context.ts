import { createContext } from 'react';
import type { UnsavedRegistry } from './unsaved-registry';

export interface UnsavedChanges {
  registry: UnsavedRegistry;
  /** Opens the question; `discard` runs only when the user chooses to discard. */
  ask: (discard: () => void, body?: string) => void;
}

export const UnsavedChangesContext = createContext<UnsavedChanges | null>(null);
