import { createStore, type Store } from '../../lib/store';

/** One open editor: whether it differs from what it loaded, and how to say what would be lost. */
export interface UnsavedEntry {
  dirty: boolean;
  body?: string;
}

export type UnsavedRegistry = Store<ReadonlyMap<string, UnsavedEntry>>;

export const createUnsavedRegistry = (): UnsavedRegistry =>
  createStore<ReadonlyMap<string, UnsavedEntry>>(new Map());

export function setUnsavedEntry(registry: UnsavedRegistry, id: string, entry: UnsavedEntry) {
  registry.set((entries) => {
    const now = entries.get(id);
    if (now?.dirty === entry.dirty && now.body === entry.body) return entries;
    return new Map(entries).set(id, entry);
  });
}

export function removeUnsavedEntry(registry: UnsavedRegistry, id: string) {
  registry.set((entries) => {
    if (!entries.has(id)) return entries;
    const next = new Map(entries);
    next.delete(id);
    return next;
  });
}

export const dirtyEntries = (entries: ReadonlyMap<string, UnsavedEntry>): UnsavedEntry[] =>
  [...entries.values()].filter((entry) => entry.dirty);
